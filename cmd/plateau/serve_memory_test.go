package main

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestIdleWatch: memory is released once per idle spell, never while a
// request runs.
func TestIdleWatch(t *testing.T) {
	w := &idleWatch{}
	var during bool
	h := w.wrap(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { during = w.idle(0) }))
	if !w.idle(0) || w.idle(0) {
		t.Fatal("an idle server is released once")
	}
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil))
	if during {
		t.Error("released during a request")
	}
	if !w.idle(0) {
		t.Error("not released after a request")
	}
	if w.idle(0) {
		t.Error("released twice without a request between")
	}
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil))
	if w.idle(1 << 62) {
		t.Error("released before the idle time")
	}
	if !w.idle(0) {
		t.Error("not released after the second request")
	}
}
