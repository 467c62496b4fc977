package review

import (
	"crypto/hmac"
	"crypto/sha256"
	"strconv"

	"github.com/planwarden/planwarden/planparse"
)

// What the report holds of plan text goes through planparse's allow-list
// (planparse/shown.go): outputs, action configurations and diffs through
// the report's Viewer, names, SKUs and regions through ShownName, reasons
// and check messages through ShownProse, paths through ShownPath.

// shownOutput is an output change as the report shows it: each side as
// the Viewer shows a value at "output.NAME".
func shownOutput(show *planparse.Viewer, o *planparse.OutputChange) *Output {
	at := planparse.Place{Address: "output." + o.Name, Path: o.Name}
	return &Output{Name: o.Name, Action: string(o.Action), Sensitive: o.Sensitive,
		Before: show.Value(at, o.Before).Text, After: show.Value(at, o.After).Text}
}

// shownProblems are a check's error messages as the report shows them.
func shownProblems(ps []string) []string {
	if ps == nil {
		return nil
	}
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = planparse.ShownProse(p)
	}
	return out
}

// shownPaths are attribute paths with their map keys shown by the
// allow-list; never nil.
func shownPaths(ps []string) []string {
	if len(ps) == 0 {
		return []string{}
	}
	var out []string
	for i, p := range ps {
		s := planparse.ShownPath(p)
		if s != p && out == nil {
			out = append(make([]string, 0, len(ps)), ps[:i]...)
		}
		if out != nil {
			out = append(out, s)
		}
	}
	if out == nil {
		return ps
	}
	return out
}

// PRDigestKey is the digest key (Options.DigestKey) of the reviews of one
// pull request: an HMAC of the repository and the pull request's number
// under secret, a secret of the installation's that no reader of a
// comment holds (the App's webhook secret). Every review of the pull
// request shows an unchanged text with the same digest; another pull
// request's digests differ, and without the secret none can be
// recomputed from a guess.
func PRDigestKey(secret []byte, repo string, pr int) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("planwarden digest key v1\x00" + repo + "#" + strconv.Itoa(pr)))
	return m.Sum(nil)
}
