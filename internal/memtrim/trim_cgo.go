//go:build linux && cgo

package memtrim

/*
#cgo LDFLAGS: -ldl
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>

// glibc's malloc_trim, looked up at run time: another C library (musl)
// has none.
static int plateau_malloc_trim(void) {
	int (*f)(size_t) = (int (*)(size_t))dlsym(RTLD_DEFAULT, "malloc_trim");
	return f ? f(0) : -1;
}
*/
import "C"

func trim() bool { return C.plateau_malloc_trim() == 1 }
