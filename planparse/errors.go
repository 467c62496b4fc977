package planparse

import (
	"errors"
	"fmt"
	"strings"

	"github.com/planwarden/planwarden/planparse/internal/jsonscan"
	"github.com/planwarden/planwarden/planparse/internal/secret"
)

// The kinds of bad input Parse reports. Test with errors.Is.
var (
	ErrNotJSON            = errors.New("not JSON")
	ErrNotPlan            = errors.New("not a plan")
	ErrWrapperOutput      = errors.New("terraform wrapper output mixed into the plan")
	ErrBinaryPlan         = errors.New("binary plan file")
	ErrUnsupportedVersion = errors.New("unsupported plan format version")
	ErrEmptyInput         = errors.New("empty input")
)

// Error is a plan file that cannot be read. It names the file, where it
// went wrong when that is known, and what to do about it.
type Error struct {
	File string
	Kind error // one of the Err* values
	// Line and Column locate a JSON syntax error (1-based), or are 0.
	Line, Column int
	// Detail says what was found; Hint says what to do.
	Detail, Hint string
}

func (e *Error) Error() string {
	loc := e.File
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d:%d", e.File, e.Line, e.Column)
	}
	msg := fmt.Sprintf("%s: %v", loc, e.Kind)
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	if e.Hint != "" {
		msg += "; " + e.Hint
	}
	return msg
}

// Unwrap makes errors.Is(err, ErrNotJSON) and friends work.
func (e *Error) Unwrap() error { return e.Kind }

const showHint = "produce it with `terraform plan -out=tfplan && terraform show -json tfplan > plan.json`"

// Errors quote no plan text but through the allow-list (shown.go): a
// value in an error is shown as ShownName shows it, an address with its
// instance keys as the comment shows them, and with anything else about
// it summarized.

// shownAddress is an address as an error may quote it: its instance keys
// hidden as the comment hides them, and the whole summarized when what
// is left is not an address's form (a malformed plan's text).
func shownAddress(secrets *secret.Set, addr string) string {
	a := sanitizer{secrets: secrets}.redactAddress(addr)
	bare := mapAddressKeys(a, func(string) (string, bool) { return "k", true })
	bare = strings.NewReplacer(`["k"]`, "", "[", "", "]", "").Replace(bare)
	if strings.ContainsAny(bare, " \t\"") || !shownString(bare) {
		return ShownName(addr)
	}
	return a
}

// shownList is a list of plan strings as an error may quote it.
func shownList(xs []string) string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = ShownName(x)
	}
	return "[" + strings.Join(out, " ") + "]"
}

// MaxDepth is how deeply a plan's JSON may nest (objects and arrays). A
// real plan stays far below it; a deeper document is refused with an
// *Error instead of costing memory and time in every walk that follows.
const MaxDepth = jsonscan.MaxDepth
