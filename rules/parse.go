package rules

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// ConfigError is a config that cannot be used. It lists every problem
// found, each with its line, so that the app can turn it into a failing
// check that names the file and the line, and `planwarden validate` can
// print them all at once.
type ConfigError struct {
	File     string
	Problems []ConfigProblem // sorted by line
}

// ConfigProblem is one thing wrong with a config.
type ConfigProblem struct {
	// Line is 1-based; 0 when the problem is with the file as a whole.
	Line int
	// Path is the key path of the offending value, as
	// `rules.cost-increase.hourly_delta.warn` or `projects[0].environment`;
	// "" for the whole file.
	Path string
	// Message says what is wrong and what was expected.
	Message string
}

// Error renders each problem as "file:line: message", one per line.
func (e *ConfigError) Error() string {
	var b strings.Builder
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.File)
		if p.Line > 0 {
			fmt.Fprintf(&b, ":%d", p.Line)
		}
		b.WriteString(": ")
		b.WriteString(p.Message)
	}
	return b.String()
}

// LoadConfig reads and parses a config file (see ParseConfig). A file that
// cannot be read is an error naming it; it is not replaced by defaults.
func LoadConfig(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	return ParseConfig(path, data)
}

// ParseConfig decodes and validates a config file's bytes; file is the name
// used in errors. Decoding is strict: an unknown key, a value of the wrong
// type, a bad value (an unknown severity, environment or rule, a CEL rule
// that does not compile) is an error, and the error is a *ConfigError
// naming file, line and what was expected. An empty file (or one holding
// only comments) gives DefaultConfig.
func ParseConfig(file string, data []byte) (*Config, error) {
	ps := &problems{file: file, lines: map[string]int{}}
	root, err := parseYAML(data)
	if err != nil {
		ps.addYAMLError(err)
		return nil, ps.err()
	}
	if root == nil {
		c := DefaultConfig()
		c.file = file
		return c, nil
	}
	if root.Kind != yaml.MappingNode {
		ps.add(root.Line, "", "expected a mapping with version: %d at the top, got %s", ConfigVersion, nodeKind(root))
		return nil, ps.err()
	}
	ps.walk(root, reflect.TypeOf(Config{}), "", "")
	if len(ps.list) > 0 {
		return nil, ps.err()
	}
	c := &Config{}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(c); err != nil {
		ps.addYAMLError(err)
		return nil, ps.err()
	}
	c.file = file
	c.finish()
	ps.check(c)
	if len(ps.list) > 0 {
		return nil, ps.err()
	}
	return c, nil
}

// parseYAML returns the root node of the single document in data, or nil
// for an empty document.
func parseYAML(data []byte) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, err
	}
	var second yaml.Node
	if err := dec.Decode(&second); err == nil {
		return nil, &yamlLineError{line: second.Line, msg: "only one YAML document is allowed"}
	} else if !errors.Is(err, io.EOF) {
		return nil, err
	}
	if doc.Kind == yaml.DocumentNode && len(doc.Content) > 0 {
		root := doc.Content[0]
		if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
			return nil, nil
		}
		return root, nil
	}
	return nil, nil
}

type yamlLineError struct {
	line int
	msg  string
}

func (e *yamlLineError) Error() string { return fmt.Sprintf("line %d: %s", e.line, e.msg) }

// problems collects what is wrong with a config, with the line of every
// key path seen while walking it.
type problems struct {
	file    string
	list    []ConfigProblem
	lines   map[string]int
	aliased map[*yaml.Node]bool // anchors already walked
	steps   int                 // nodes walked
}

func (ps *problems) add(line int, path, format string, args ...any) {
	ps.list = append(ps.list, ConfigProblem{Line: line, Path: path, Message: fmt.Sprintf(format, args...)})
}

// at reports a problem at a key path, on the line of the path or of its
// nearest parent.
func (ps *problems) at(path, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if path != "" {
		msg = path + ": " + msg
	}
	ps.list = append(ps.list, ConfigProblem{Line: ps.lineOf(path), Path: path, Message: msg})
}

func (ps *problems) lineOf(path string) int {
	for p := path; p != ""; p = parentPath(p) {
		if l, ok := ps.lines[p]; ok {
			return l
		}
	}
	return 1
}

func parentPath(p string) string {
	i := strings.LastIndexAny(p, ".[")
	if i < 0 {
		return ""
	}
	return p[:i]
}

func (ps *problems) err() error {
	sort.SliceStable(ps.list, func(i, j int) bool { return ps.list[i].Line < ps.list[j].Line })
	return &ConfigError{File: ps.file, Problems: ps.list}
}

var yamlLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`) })

// addYAMLError turns a yaml.v3 error into problems with lines.
func (ps *problems) addYAMLError(err error) {
	var te *yaml.TypeError
	msgs := []string{err.Error()}
	if errors.As(err, &te) {
		msgs = te.Errors
	}
	for _, m := range msgs {
		m = strings.TrimPrefix(m, "yaml: ")
		line := 1
		if sub := yamlLine().FindStringSubmatch(m); sub != nil {
			line, _ = strconv.Atoi(sub[1])
			m = sub[2]
			// yaml.v3 reports parser errors at the 0-based line of the
			// construct they are in (the unclosed { or [); scanner errors
			// are 1-based.
			if strings.HasPrefix(m, "did not find expected") {
				line++
			}
		}
		ps.add(line, "", "invalid YAML: %s", m)
	}
}

// walk checks a node against the Go type it will decode into: every key
// known, every value of the right shape and type, every required key
// present, every enumerated value allowed. It records the line of every
// key path for the semantic checks that follow.
func (ps *problems) walk(n *yaml.Node, t reflect.Type, path, enum string) {
	ps.steps++
	if n.Kind == yaml.AliasNode {
		// Check what an anchor holds once: walking every use would let a
		// few lines of nested aliases (a "billion laughs") take forever.
		if ps.aliased == nil {
			ps.aliased = map[*yaml.Node]bool{}
		}
		for n.Kind == yaml.AliasNode && n.Alias != nil {
			if ps.aliased[n.Alias] {
				return
			}
			ps.aliased[n.Alias] = true
			n = n.Alias
		}
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return
	}
	where := path
	if where == "" {
		where = "the top level"
	}
	switch t.Kind() {
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			ps.bad(n, path, "a mapping with keys "+strings.Join(fieldNames(t), ", "))
			return
		}
		fields := structFields(t)
		seen := map[string]bool{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Tag == "!!merge" { // <<: *defaults
				merged := []*yaml.Node{v}
				if v.Kind == yaml.SequenceNode {
					merged = v.Content
				}
				for _, m := range merged {
					ps.walk(m, t, path, enum)
				}
				continue
			}
			p := joinPath(path, k.Value)
			ps.lines[p] = k.Line
			f, ok := fields[k.Value]
			if !ok {
				names := fieldNames(t)
				loc := "in " + path
				if path == "" {
					loc = "at the top level"
				}
				msg := fmt.Sprintf("unknown key %q %s; expected one of: %s", k.Value, loc, strings.Join(names, ", "))
				if s := suggest(k.Value, names); s != "" {
					msg += fmt.Sprintf(" (did you mean %q?)", s)
				}
				ps.add(k.Line, p, "%s", msg)
				continue
			}
			seen[k.Value] = true
			if f.Tag.Get("required") == "true" && v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
				ps.bad(v, p, describe(f.Type, f.Tag.Get("enum")))
				continue
			}
			ps.walk(v, f.Type, p, f.Tag.Get("enum"))
		}
		for _, name := range fieldNames(t) {
			if fields[name].Tag.Get("required") == "true" && !seen[name] {
				ps.add(n.Line, path, "%s: missing key %q (%s)", where, name, fields[name].Tag.Get("doc"))
			}
		}
	case reflect.Map:
		if n.Kind != yaml.MappingNode {
			ps.bad(n, path, "a mapping of names to "+nouns(t.Elem(), enum))
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Kind != yaml.ScalarNode {
				ps.bad(k, path, "a name as the key")
				continue
			}
			p := joinPath(path, k.Value)
			ps.lines[p] = k.Line
			ps.walk(v, t.Elem(), p, enum)
		}
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			ps.bad(n, path, "a list of "+nouns(t.Elem(), enum))
			return
		}
		for i, e := range n.Content {
			p := fmt.Sprintf("%s[%d]", path, i)
			ps.lines[p] = e.Line
			ps.walk(e, t.Elem(), p, enum)
		}
	case reflect.String:
		if n.Kind != yaml.ScalarNode {
			ps.bad(n, path, describe(t, enum))
			return
		}
		ps.checkEnum(n, path, enum)
	case reflect.Int:
		if n.Kind != yaml.ScalarNode || n.Tag != "!!int" {
			ps.bad(n, path, describe(t, enum))
			return
		}
		ps.checkEnum(n, path, enum)
	case reflect.Float64:
		if n.Kind != yaml.ScalarNode || n.Tag != "!!int" && n.Tag != "!!float" {
			ps.bad(n, path, describe(t, enum))
		}
	case reflect.Bool:
		if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" {
			ps.bad(n, path, describe(t, enum))
		}
	}
}

func (ps *problems) checkEnum(n *yaml.Node, path, enum string) {
	if enum == "" {
		return
	}
	allowed := strings.Split(enum, ",")
	for _, a := range allowed {
		if n.Value == a {
			return
		}
	}
	msg := fmt.Sprintf("%s: %q is not allowed; expected one of: %s", path, n.Value, strings.Join(allowed, ", "))
	if s := suggest(n.Value, allowed); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	ps.add(n.Line, path, "%s", msg)
}

func (ps *problems) bad(n *yaml.Node, path, expected string) {
	where := path
	if where == "" {
		where = "the top level"
	}
	ps.add(n.Line, path, "%s: expected %s, got %s", where, expected, nodeKind(n))
}

// describe says in words what a value of type t looks like.
func describe(t reflect.Type, enum string) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if enum != "" {
		return "one of " + strings.ReplaceAll(enum, ",", ", ")
	}
	switch t.Kind() {
	case reflect.Struct:
		return "a mapping with keys " + strings.Join(fieldNames(t), ", ")
	case reflect.Map:
		return "a mapping"
	case reflect.Slice:
		return "a list"
	case reflect.String:
		return "a string"
	case reflect.Int:
		return "a whole number"
	case reflect.Float64:
		return "a number"
	case reflect.Bool:
		return "true or false"
	}
	return t.String()
}

// nouns names values of type t in the plural.
func nouns(t reflect.Type, enum string) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if enum != "" {
		return "values from " + strings.ReplaceAll(enum, ",", ", ")
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "mappings"
	case reflect.Slice:
		return "lists"
	case reflect.String:
		return "strings"
	case reflect.Int, reflect.Float64:
		return "numbers"
	case reflect.Bool:
		return "booleans"
	}
	return t.String()
}

// nodeKind says in words what a YAML node holds.
func nodeKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!str":
			return strconv.Quote(n.Value)
		case "!!null":
			return "null"
		}
		return n.Value
	}
	return "something else"
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// structFields returns the yaml-named fields of a struct type, inline
// fields flattened.
func structFields(t reflect.Type) map[string]reflect.StructField {
	out := map[string]reflect.StructField{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if strings.Contains(opts, "inline") {
			for k, v := range structFields(f.Type) {
				out[k] = v
			}
			continue
		}
		if name == "-" {
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		out[name] = f
	}
	return out
}

// fieldNames returns a struct type's yaml keys in declaration order.
func fieldNames(t reflect.Type) []string {
	var names []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if strings.Contains(opts, "inline") {
			names = append(names, fieldNames(f.Type)...)
			continue
		}
		if name == "-" {
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		names = append(names, name)
	}
	return names
}

// suggest returns the candidate closest to s when it is close enough to
// be a typo of it.
// Suggest returns the candidate closest to s when it is close enough to
// be a typo of it (for a did-you-mean), else "".
func Suggest(s string, candidates []string) string { return suggest(s, candidates) }

func suggest(s string, candidates []string) string {
	best, bestD := "", 1<<30
	for _, c := range candidates {
		if d := distance(strings.ToLower(s), strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	limit := max(2, len(s)/3)
	if bestD <= limit && bestD < len(s) {
		return best
	}
	return ""
}

// distance is the Levenshtein distance of two strings.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
