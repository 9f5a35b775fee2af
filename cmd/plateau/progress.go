package main

import (
	"fmt"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"
)

// progress is a bar on standard error for work a person waits for; it
// draws nothing when standard error is not a terminal (scripts, tests).
type progress struct {
	bar *progressbar.ProgressBar
}

func newProgress(c *cli.Context, what string) *progress {
	if !stderrIsTerminal(c) {
		return &progress{}
	}
	return &progress{bar: progressbar.NewOptions64(-1,
		progressbar.OptionSetWriter(c.App.ErrWriter),
		progressbar.OptionSetDescription(what),
		progressbar.OptionSetWidth(30),
		progressbar.OptionShowCount(),
		progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)}
}

// set shows done of total (total 0: unknown).
func (p *progress) set(done, total int) {
	if p == nil || p.bar == nil {
		return
	}
	if total > 0 && int64(total) != p.bar.GetMax64() {
		p.bar.ChangeMax(total)
	}
	p.bar.Set(done)
}

func (p *progress) describe(format string, args ...any) {
	if p != nil && p.bar != nil {
		p.bar.Describe(fmt.Sprintf(format, args...))
	}
}

func (p *progress) done() {
	if p != nil && p.bar != nil {
		p.bar.Finish()
	}
}
