package main

import "github.com/urfave/cli/v2"

// generateCommands are the commands that make and measure collections:
// generate and bench.
func generateCommands() []*cli.Command { return nil }
