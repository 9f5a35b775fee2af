// Package memtrim returns the C heap's free memory to the operating system:
// the memory SQLite (cgo) freed stays in the C allocator's arenas, counted
// in the process's resident memory, until the allocator is told to give it
// back.
package memtrim

// Trim asks the C allocator to return its free memory to the operating
// system (glibc's malloc_trim; nothing elsewhere) and reports whether it
// returned some.
func Trim() bool { return trim() }
