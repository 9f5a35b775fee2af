//go:build !linux || !cgo

package memtrim

func trim() bool { return false }
