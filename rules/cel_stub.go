//go:build !celrules

package rules

import "errors"

// celAvailable reports whether this build evaluates custom rules.
const celAvailable = false

// compileCustom refuses custom rules in a build without CEL. Build with
// -tags celrules until go.mod carries cel-go's dependencies.
func compileCustom(r CustomRule) (*customRule, error) {
	return nil, errors.New("custom rules need CEL, which this build of planwarden lacks")
}
