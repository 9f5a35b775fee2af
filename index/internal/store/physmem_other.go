//go:build !linux

package store

// physMem is the machine's memory in bytes (0: unknown).
func physMem() int64 { return 0 }
