package planparse

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/planwarden/planwarden/planparse/internal/secret"
)

// A Viewer renders a plan's attribute values for a reviewer by the
// allow-list of shown.go: numbers, booleans and null as they are, strings
// safe by their form whole, JSON documents held in strings as their
// structure with each leaf judged alike, and every other string as a
// summary: "(text, 14 lines, 3fa2c1d0)", or for a change of one
// "(text, 14 -> 16 lines, +3 -1, 3fa2c1d0 -> 9b01e2aa)". Values under names
// that hold commands or their environment (commandNames, envNames) are
// always summarized. Sensitive and unknown values read SensitiveText and
// UnknownText.
//
// The digest is eight hex digits of an HMAC-SHA256 of the text under the
// Viewer's key. Nobody who reads the output holds the key, so a digest
// cannot be checked against guesses (no dictionary oracle for a short
// password); the same key gives the same digest, so a reviewer sees that
// a script did or did not change between two reviews made with one key.
//
// A nil *Viewer is usable: it is a Viewer with a key drawn once per
// process and no full-text places.
type Viewer struct {
	key  []byte
	full func(typ, address string) bool
}

// NewViewer returns a Viewer whose digests are keyed by key (nil or empty:
// the per-process key). fullText, when set, names the places a repo opted
// into full text (comment.show_text): for a resource's type and address,
// or for an output's "output.NAME" as address, it reports whether values
// are shown as they are, detection still hiding what it finds.
func NewViewer(key []byte, fullText func(typ, address string) bool) *Viewer {
	if len(key) == 0 {
		key = processKey()
	}
	return &Viewer{key: key, full: fullText}
}

// processKey is the digest key of a Viewer made without one: random, drawn
// once per process, never written anywhere.
var processKey = sync.OnceValue(func() []byte {
	k := make([]byte, 32)
	_, _ = rand.Read(k) // crypto/rand.Read never fails (Go 1.24+)
	return k
})

func (w *Viewer) keyOrDefault() []byte {
	if w == nil || len(w.key) == 0 {
		return processKey()
	}
	return w.key
}

// fullText reports whether the place is opted into full text.
func (w *Viewer) fullText(typ, address string) bool {
	return w != nil && w.full != nil && w.full(typ, address)
}

// Place says where a value sits: the resource (or action) type and
// address, and its attribute path as AttrDiff.Path writes it. An output's
// place is Address "output.NAME" and Path its name.
type Place struct {
	Type, Address, Path string
}

// Shown is a value as a reviewer sees it.
type Shown struct {
	// Text is the value: a string shown whole as it is (Whole), a number,
	// boolean or null as JSON writes it, a list or map as compact JSON
	// with each leaf shown the same way, a document's structure, a
	// summary in parentheses, SensitiveText or UnknownText.
	Text string
	// Whole is true when Text is a string value shown whole, which a
	// caller quotes.
	Whole bool
}

// Value returns v as a reviewer may see it at its place.
func (w *Viewer) Value(at Place, v Value) Shown {
	if w.fullText(at.Type, at.Address) {
		if s, ok := v.Str(); ok && isTextPlaceholder(s) {
			return Shown{Text: w.summary(s)} // the text is not in a redacted plan
		} else if ok {
			return Shown{Text: s, Whole: true}
		}
		return Shown{Text: v.Display()}
	}
	return w.shown(pathSteps(at.Path), v.tree())
}

// Tree returns v as plain data (as Value.Interface) with every string
// leaf shown as Value shows it: a summary or a document's structure in
// place of text. It is what the JSON report holds of a value.
func (w *Viewer) Tree(at Place, v Value) any {
	if w.fullText(at.Type, at.Address) {
		return v.Interface()
	}
	return w.tree(pathSteps(at.Path), v.tree(), 0)
}

// shown is Value of a decoded tree x at the steps of its path.
func (w *Viewer) shown(steps []string, x any) Shown {
	switch t := x.(type) {
	case string:
		if doc, ok := w.document(steps, t, 0); ok {
			return Shown{Text: doc}
		}
		if !textPlace(steps) && shownString(t) {
			return Shown{Text: t, Whole: true}
		}
		return Shown{Text: w.summary(t)}
	case map[string]any, []any:
		b, err := json.Marshal(w.tree(steps, x, 0))
		if err != nil {
			return Shown{Text: "(unprintable)"}
		}
		return Shown{Text: string(b)}
	}
	return Shown{Text: Value{v: x}.Display()}
}

// maxDocDepth bounds documents inside documents; deeper ones are text.
const maxDocDepth = 3

// tree is Tree of a decoded value at the steps of its path; depth counts
// the documents it is inside.
func (w *Viewer) tree(steps []string, x any, depth int) any {
	switch t := x.(type) {
	case string:
		if doc, ok := w.document(steps, t, depth); ok {
			return doc
		}
		if !textPlace(steps) && shownString(t) {
			return t
		}
		return w.summary(t)
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			sk := k
			if !keyShown(k) {
				sk = sanitizer{}.keyText(k)
			}
			out[sk] = w.tree(append(steps[:len(steps):len(steps)], k), e, depth)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = w.tree(append(steps[:len(steps):len(steps)], indexStep), e, depth)
		}
		return out
	case json.Number:
		f, err := t.Float64()
		if err != nil {
			return t.String()
		}
		return f
	}
	return plain(x)
}

// maxDocument bounds the strings read as documents.
const maxDocument = 256 << 10

// document returns the string s at steps as its structure when it is a
// JSON object or array (an IAM policy, container definitions): compact
// JSON with every leaf shown as tree shows it.
func (w *Viewer) document(steps []string, s string, depth int) (string, bool) {
	x, ok := parseDocument(s, depth)
	if !ok {
		return "", false
	}
	b, err := json.Marshal(w.tree(steps, x, depth+1))
	if err != nil {
		return "", false
	}
	return string(b), true
}

// parseDocument decodes s when it is a JSON object or array within the
// bounds (maxDocument bytes, maxDocDepth documents deep).
func parseDocument(s string, depth int) (any, bool) {
	t := strings.TrimSpace(s)
	if depth >= maxDocDepth || len(t) < 2 || len(t) > maxDocument || (t[0] != '{' || t[len(t)-1] != '}') && (t[0] != '[' || t[len(t)-1] != ']') {
		return nil, false
	}
	dec := json.NewDecoder(strings.NewReader(t))
	dec.UseNumber()
	var x any
	if dec.Decode(&x) != nil || dec.More() {
		return nil, false
	}
	return x, true
}

// digest is eight hex digits of the keyed digest of s.
func (w *Viewer) digest(s string) string {
	m := hmac.New(sha256.New, w.keyOrDefault())
	m.Write([]byte("planwarden text\x00"))
	m.Write([]byte(textFingerprint(s))) // a text and its placeholder alike
	return hex.EncodeToString(m.Sum(nil)[:4])
}

// summary says what a text is without its text: "(text, 14 lines, 3fa2c1d0)".
func (w *Viewer) summary(s string) string {
	return "(text, " + countLines(len(textLines(s))) + ", " + w.digest(s) + ")"
}

// pairSummary says how a text changed: "(text, 14 -> 16 lines, +3 -1,
// 3fa2c1d0 -> 9b01e2aa)", lines added and removed counted as a multiset
// (a moved line is neither).
func (w *Viewer) pairSummary(before, after string) string {
	bl, al := textLines(before), textLines(after)
	nb, na := len(bl), len(al)
	count := countLines(na)
	if nb != na {
		count = itoa(nb) + " -> " + countLines(na)
	}
	added, removed := lineDelta(bl, al)
	return "(text, " + count + ", +" + itoa(added) + " -" + itoa(removed) + ", " + w.digest(before) + " -> " + w.digest(after) + ")"
}

// lineDelta counts the lines of after not in before and of before not in
// after, each line matched once (textLines: lines, or a placeholder's
// digests of lines).
func lineDelta(before, after []string) (added, removed int) {
	seen := map[string]int{}
	for _, l := range before {
		seen[l]++
	}
	for _, l := range after {
		if seen[l] > 0 {
			seen[l]--
			continue
		}
		added++
	}
	for _, n := range seen {
		removed += n
	}
	return added, removed
}

func itoa(n int) string { return strconv.Itoa(n) }

// indexStep stands for a list index among a path's steps.
const indexStep = "[]"

// pathSteps splits an attribute path as AttrDiff.Path writes it
// (a.b[0]["k"]) into its steps: names and keys, indexes as indexStep.
func pathSteps(p string) []string {
	var out []string
	for i := 0; i < len(p); {
		switch p[i] {
		case '.':
			i++
		case '[':
			if i+1 < len(p) && p[i+1] == '"' {
				end := quotedEnd(p, i+1)
				if end < 0 {
					return append(out, p[i:])
				}
				k, err := strconv.Unquote(p[i+1 : end+1])
				if err != nil {
					k = p[i+1 : end+1]
				}
				out = append(out, k)
				i = end + 1
				if i < len(p) && p[i] == ']' {
					i++
				}
				continue
			}
			j := strings.IndexByte(p[i:], ']')
			if j < 0 {
				return append(out, p[i:])
			}
			out = append(out, indexStep)
			i += j + 1
		default:
			j := strings.IndexAny(p[i:], ".[")
			if j < 0 {
				j = len(p) - i
			}
			out = append(out, p[i:i+j])
			i += j
		}
	}
	return out
}

// commandNames are the words of attribute names whose values are
// commands, scripts or their arguments: shown as text however short.
var commandNames = map[string]bool{
	"script": true, "scripts": true, "command": true, "commands": true, "cmd": true,
	"args": true, "arg": true, "argv": true, "arguments": true, "entrypoint": true,
	"exec": true, "userdata": true, "customdata": true,
	"cloudinit": true,
}

// commandCompounds are names of two words that say the same
// (user_data, custom_data, cloud_init, entry_point).
var commandCompounds = []string{"user_data", "custom_data", "cloud_init", "entry_point"}

// envNames are the words of attribute names whose entries are a program's
// environment or parameters: every value below one is shown as text (the
// entry's own "name" excepted).
var envNames = map[string]bool{
	"env": true, "envs": true, "environment": true, "parameters": true, "appsettings": true,
}

// envCompounds are the environment names of two words.
var envCompounds = []string{"app_settings", "env_vars", "environment_variables", "app_config"}

// dataMaps are the attributes whose keys are data (a tag key named
// "environment" is no environment).
var dataMaps = map[string]bool{
	"tags": true, "tags_all": true, "labels": true, "node_labels": true, "annotations": true,
	"freeform_tags": true, "defined_tags": true, "resource_labels": true, "user_labels": true,
	"match_labels": true, "node_selector": true, "selector": true, "default_tags": true,
}

// textPlace reports whether a value at these steps is always text: under
// a command name anywhere, or below an environment name.
func textPlace(steps []string) bool {
	last := len(steps) - 1
	for last >= 0 && steps[last] == indexStep {
		last--
	}
	for i, s := range steps {
		if s == indexStep || i > 0 && dataMaps[steps[i-1]] {
			continue
		}
		name := secret.SnakeName(s)
		if hasWordIn(name, commandNames, commandCompounds) {
			return true
		}
		if i < last && hasWordIn(name, envNames, envCompounds) && !entryName(steps[i+1:last+1]) {
			return true
		}
	}
	return false
}

// entryName reports whether the steps below an environment name lead to
// an entry's own name ({name, value} lists: env[0].name): indexes, then
// "name".
func entryName(below []string) bool {
	n := len(below) - 1
	if n < 0 || below[n] != "name" && below[n] != "Name" {
		return false
	}
	for _, s := range below[:n] {
		if s != indexStep {
			return false
		}
	}
	return true
}

// hasWordIn reports whether a snake_case name has one of the words, or
// holds one of the compounds as whole words.
func hasWordIn(name string, words map[string]bool, compounds []string) bool {
	for _, w := range strings.FieldsFunc(name, func(r rune) bool { return r == '_' || r == '-' || r == '.' }) {
		if words[w] {
			return true
		}
	}
	for _, c := range compounds {
		if i := strings.Index(name, c); i >= 0 && (i == 0 || !isAlnumByte(name[i-1])) && (i+len(c) == len(name) || !isAlnumByte(name[i+len(c)])) {
			return true
		}
	}
	return false
}

// ShownDiff is one line of an attribute diff as a reviewer sees it.
type ShownDiff struct {
	// Path is the attribute path with unsafe keys hidden (ShownPath); a
	// leaf inside a JSON document held in a string adds " » " and its path
	// inside the document.
	Path string
	// Op is '+' (the value appears), '-' (it goes) or '~' (it changes).
	Op byte
	// Before and After are the sides as Viewer.Value shows them; Text,
	// when set, says the change of a text in one summary instead.
	Before, After Shown
	Text          string
	// ForcesReplacement is AttrDiff's.
	ForcesReplacement bool
}

// docStep joins a path to the path of a leaf inside the document it holds.
const docStep = " » "

// Diff returns the change's attribute diff (Change.Diff, in its order) as
// a reviewer sees it: a change between two texts is one summary, a change
// between two JSON documents a line per leaf that differs.
func (w *Viewer) Diff(c *Change) []ShownDiff {
	ds := c.Diff()
	out := make([]ShownDiff, 0, len(ds))
	full := w.fullText(c.Type, c.Address)
	for _, d := range ds {
		steps := pathSteps(d.Path)
		sd := ShownDiff{Path: ShownPath(d.Path), Op: '~', ForcesReplacement: d.ForcesReplacement}
		switch {
		case d.Before.IsNull() && !d.After.IsNull():
			sd.Op = '+'
		case d.After.IsNull() && !d.Before.IsNull():
			sd.Op = '-'
		}
		if full {
			at := Place{Type: c.Type, Address: c.Address, Path: d.Path}
			sd.Before, sd.After = w.Value(at, d.Before), w.Value(at, d.After)
			out = append(out, sd)
			continue
		}
		out = w.pair(out, sd, steps, d.Before.tree(), d.After.tree(), 0)
	}
	return out
}

// pair appends the lines of one changed leaf: a text pair as one summary,
// a document pair as the lines of its leaves, else each side shown.
func (w *Viewer) pair(out []ShownDiff, sd ShownDiff, steps []string, before, after any, depth int) []ShownDiff {
	bs, bok := before.(string)
	as, aok := after.(string)
	if bok && aok {
		bd, bdoc := parseDocument(bs, depth)
		ad, adoc := parseDocument(as, depth)
		if bdoc && adoc {
			var inner []AttrDiff
			diffWalk(nil, bd, ad, &inner)
			sort.Slice(inner, func(i, j int) bool { return inner[i].Path < inner[j].Path })
			for _, d := range inner {
				sub := sd
				sub.Path = sd.Path + docStep + ShownPath(d.Path)
				sub.Op = '~'
				switch {
				case d.Before.IsNull() && !d.After.IsNull():
					sub.Op = '+'
				case d.After.IsNull() && !d.Before.IsNull():
					sub.Op = '-'
				}
				out = w.pair(out, sub, append(steps[:len(steps):len(steps)], pathSteps(d.Path)...), d.Before.tree(), d.After.tree(), depth+1)
			}
			return out
		}
		if !bdoc && !adoc && (textPlace(steps) || !shownString(bs) && !shownString(as)) {
			sd.Text = w.pairSummary(bs, as)
			return append(out, sd)
		}
	}
	sd.Before, sd.After = w.sideAt(steps, before, depth), w.sideAt(steps, after, depth)
	return append(out, sd)
}

// sideAt is shown for one side of a pair depth documents deep.
func (w *Viewer) sideAt(steps []string, x any, depth int) Shown {
	if depth == 0 {
		return w.shown(steps, x)
	}
	if s, ok := x.(string); ok && !textPlace(steps) && shownString(s) {
		return Shown{Text: s, Whole: true}
	}
	y := w.tree(steps, x, depth)
	if s, ok := y.(string); ok {
		return Shown{Text: s}
	}
	b, err := json.Marshal(y)
	if err != nil {
		return Shown{Text: "(unprintable)"}
	}
	return Shown{Text: string(b)}
}

// Leaves calls leaf with every leaf of v that is not null, as Value shows
// it, maps in key order: an empty list is a leaf ("[]"), an empty map
// none. Paths continue at.Path as AttrDiff.Path writes them (a.b[0],
// tags["cost center"]), with map keys shown as ShownPath shows them. It
// is how an action's configuration is listed.
func (w *Viewer) Leaves(at Place, v Value, leaf func(path string, s Shown)) {
	full := w.fullText(at.Type, at.Address)
	var walk func(path string, steps []string, x any)
	walk = func(path string, steps []string, x any) {
		switch t := x.(type) {
		case nil:
		case map[string]any:
			for _, k := range sortedKeys(t) {
				walk(path+keyStep(path, k), append(steps[:len(steps):len(steps)], k), t[k])
			}
		case []any:
			if len(t) == 0 {
				leaf(path, Shown{Text: "[]"})
				return
			}
			for i, e := range t {
				walk(path+"["+itoa(i)+"]", append(steps[:len(steps):len(steps)], indexStep), e)
			}
		default:
			if s, ok := x.(string); ok && full && !isTextPlaceholder(s) {
				leaf(path, Shown{Text: s, Whole: true})
				return
			}
			if full {
				leaf(path, Shown{Text: Value{v: x}.Display()})
				return
			}
			leaf(path, w.shown(steps, x))
		}
	}
	walk(at.Path, pathSteps(at.Path), v.tree())
}

// keyStep is the step of map key k after path: ".k" (k alone at the
// start) for a name, ["k"] for any other key, a placeholder for a key
// not safe to show.
func keyStep(path, k string) string {
	if isIdent(k) {
		if path == "" {
			return k
		}
		return "." + k
	}
	if !keyShown(k) {
		k = sanitizer{}.keyText(k)
	}
	return "[" + strconv.Quote(k) + "]"
}
