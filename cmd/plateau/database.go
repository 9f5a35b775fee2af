package main

import "github.com/urfave/cli/v2"

// databaseCommands are the commands on a database: import, search, tree,
// info, errors, crosstable, reindex.
func databaseCommands() []*cli.Command { return nil }
