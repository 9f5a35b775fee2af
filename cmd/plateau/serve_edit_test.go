package main

import "testing"

// TestServeEditLoopback: serve writes by default only where --addr is
// this machine's loopback.
func TestServeEditLoopback(t *testing.T) {
	for _, tc := range []struct {
		addr string
		want bool
	}{
		{"127.0.0.1:8080", true},
		{"127.0.0.2:8080", true},
		{"localhost:8080", true},
		{"[::1]:8080", true},
		{"0.0.0.0:8080", false},
		{":8080", false},
		{"[::]:8080", false},
		{"192.168.1.20:8080", false},
		{"example.com:80", false},
	} {
		if got := loopback(tc.addr); got != tc.want {
			t.Errorf("%s: loopback %v, want %v", tc.addr, got, tc.want)
		}
	}
}
