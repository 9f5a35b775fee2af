package ogi

import (
	"errors"

	"github.com/plateau/plateau/rules"
)

// isRule reports whether err is an illegal-move error naming rule.
func isRule(err error, rule string) bool {
	var me *rules.MoveError
	return errors.As(err, &me) && me.Kind == rules.Illegal && me.Rule == rule
}
