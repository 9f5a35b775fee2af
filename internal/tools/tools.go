//go:build tools

// Package tools pins the project's dependencies before every package that
// uses them exists, so that go.mod lists them and `go mod tidy` keeps them.
package tools

import (
	_ "github.com/blevesearch/bleve/v2"
	_ "github.com/klauspost/compress/zstd"
	_ "github.com/mattn/go-sqlite3"
	_ "github.com/schollz/progressbar/v3"
	_ "github.com/urfave/cli/v2"
	_ "golang.org/x/text/encoding/charmap"
)
