//go:build unix

package index

import "golang.org/x/sys/unix"

// writable reports whether this process may write path: permissions, and
// a read-only mount (which stops root too).
func writable(path string) bool { return unix.Access(path, unix.W_OK) == nil }
