//go:build !unix

package index

import "os"

// writable reports whether path may be written, from its mode bits.
func writable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().Perm()&0o200 != 0
}
