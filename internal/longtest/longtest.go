// Package longtest gates the tests that are too slow for the default run.
//
// `go test ./...` (the README's command) skips a long test with a message
// naming the switch; `PLATEAU_LONG=1 go test ./...` runs it, and .ci/run
// does both, so that CI keeps every check while the default run stays short.
//
// Decisions: a test is long when it costs seconds without covering a path
// that a default test does not (kill and disk-full cycles, randomized
// cross-checks against naive references, whole-pipeline runs over many
// games); the switch is an environment variable rather than -short
// inverted so that `go test ./...` stays the complete default command and
// the go tool's test cache keys on it.
package longtest

import (
	"os"
	"testing"
)

// Env is the environment variable that runs the long tests when set to 1.
const Env = "PLATEAU_LONG"

// Enabled reports whether the long tests run.
func Enabled() bool { return os.Getenv(Env) == "1" }

// Skip skips t unless PLATEAU_LONG=1.
func Skip(t testing.TB) {
	t.Helper()
	if !Enabled() {
		t.Skip("long test: set " + Env + "=1 to run it (.ci/run does)")
	}
}
