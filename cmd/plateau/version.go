package main

import "runtime/debug"

// buildVersion is set at link time: go build -ldflags "-X main.buildVersion=v1.2.3".
var buildVersion string

// version is the version plateau --version prints: the one set at link
// time, else the module version the Go toolchain stamped (a tag, or a
// pseudo-version from the commit), else "devel" with the commit if known.
func version() string {
	if buildVersion != "" {
		return buildVersion
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "devel"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "+dirty"
	}
	return "devel " + rev
}
