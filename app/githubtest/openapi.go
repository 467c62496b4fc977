package githubtest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
)

// SpecPath is GitHub's REST description, relative to the module root.
const SpecPath = "../shared/corpus/github-openapi/api.github.com.json"

// spec is the part of the OpenAPI description the fake validates against:
// paths, methods and request-body schemas. Operations decode lazily.
type spec struct {
	templates []template
	schemas   map[string]json.RawMessage
	mu        sync.Mutex
	ops       map[string]*operation // method + " " + template
}

type template struct {
	path     string
	segs     []string
	literals int
	methods  map[string]json.RawMessage
}

type operation struct {
	body     *schema
	required bool
}

type schema struct {
	Ref        string             `json:"$ref"`
	Type       any                `json:"type"`
	Required   []string           `json:"required"`
	Properties map[string]*schema `json:"properties"`
	Enum       []any              `json:"enum"`
	Items      *schema            `json:"items"`
	Nullable   bool               `json:"nullable"`
}

var (
	specOnce   sync.Once
	loaded     *spec
	specErr    error
	specReason string
)

// loadSpec reads the description once per test binary. A nil spec with a
// reason means the file is absent and validation is skipped.
func loadSpec() (*spec, string, error) {
	specOnce.Do(func() {
		file := specFile()
		data, err := os.ReadFile(file)
		if os.IsNotExist(err) {
			specReason = "GitHub's REST description is not at " + file + "; requests are not validated"
			return
		}
		if err != nil {
			specErr = err
			return
		}
		var raw struct {
			Paths      map[string]map[string]json.RawMessage `json:"paths"`
			Components struct {
				Schemas map[string]json.RawMessage `json:"schemas"`
			} `json:"components"`
		}
		if err := json.Unmarshal(data, &raw); err != nil {
			specErr = fmt.Errorf("decode %s: %w", file, err)
			return
		}
		s := &spec{schemas: raw.Components.Schemas, ops: map[string]*operation{}}
		for p, methods := range raw.Paths {
			t := template{path: p, segs: strings.Split(strings.Trim(p, "/"), "/"), methods: methods}
			for _, seg := range t.segs {
				if !strings.HasPrefix(seg, "{") {
					t.literals++
				}
			}
			s.templates = append(s.templates, t)
		}
		sort.Slice(s.templates, func(i, j int) bool { return s.templates[i].literals > s.templates[j].literals })
		loaded = s
	})
	return loaded, specReason, specErr
}

// specFile finds SpecPath from this source file (the module root is two
// directories up), so it works from any test's working directory.
func specFile() string {
	if env := os.Getenv("PLANWARDEN_GITHUB_OPENAPI"); env != "" {
		return env
	}
	_, self, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(self), "..", "..")
	return filepath.Join(root, filepath.FromSlash(SpecPath))
}

// match finds the template of a request path (without the API prefix).
func (s *spec) match(path string) *template {
	segs := strings.Split(strings.Trim(path, "/"), "/")
	for i := range s.templates {
		t := &s.templates[i]
		if t.matches(segs) {
			return t
		}
	}
	return nil
}

func (t *template) matches(segs []string) bool {
	for i, ts := range t.segs {
		if i >= len(segs) {
			return false
		}
		last := i == len(t.segs)-1
		if ts == "{path}" && last {
			return true // contents paths hold slashes
		}
		if !strings.HasPrefix(ts, "{") && ts != segs[i] {
			return false
		}
	}
	return len(segs) == len(t.segs)
}

// validate checks method, path and the JSON body's required fields, enums
// and basic types. It returns what does not match, or nil.
func (s *spec) validate(method, path string, body []byte) []string {
	t := s.match(path)
	if t == nil {
		return []string{fmt.Sprintf("no path of GitHub's REST API matches %s", path)}
	}
	m := strings.ToLower(method)
	if _, ok := t.methods[m]; !ok {
		return []string{fmt.Sprintf("%s does not take %s", t.path, method)}
	}
	op, err := s.operation(t, m)
	if err != nil {
		return []string{err.Error()}
	}
	if op.body == nil {
		return nil
	}
	if trimmed := strings.TrimSpace(string(body)); trimmed == "" || (trimmed == "null" && !op.required) {
		if op.required {
			return []string{fmt.Sprintf("%s %s needs a JSON body", method, t.path)}
		}
		return nil
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return []string{fmt.Sprintf("%s %s: body is not JSON: %v", method, t.path, err)}
	}
	var probs []string
	s.check(op.body, v, "body", &probs, 0)
	return probs
}

func (s *spec) operation(t *template, method string) (*operation, error) {
	key := method + " " + t.path
	s.mu.Lock()
	defer s.mu.Unlock()
	if op, ok := s.ops[key]; ok {
		return op, nil
	}
	var raw struct {
		RequestBody *struct {
			Required bool `json:"required"`
			Content  map[string]struct {
				Schema *schema `json:"schema"`
			} `json:"content"`
		} `json:"requestBody"`
	}
	if err := json.Unmarshal(t.methods[method], &raw); err != nil {
		return nil, fmt.Errorf("decode operation %s: %w", key, err)
	}
	op := &operation{}
	if raw.RequestBody != nil {
		op.required = raw.RequestBody.Required
		if c, ok := raw.RequestBody.Content["application/json"]; ok {
			op.body = c.Schema
		}
	}
	s.ops[key] = op
	return op, nil
}

func (s *spec) resolve(sc *schema) *schema {
	for range 10 {
		if sc == nil || sc.Ref == "" {
			return sc
		}
		raw, ok := s.schemas[strings.TrimPrefix(sc.Ref, "#/components/schemas/")]
		if !ok {
			return nil
		}
		var next schema
		if json.Unmarshal(raw, &next) != nil {
			return nil
		}
		sc = &next
	}
	return nil
}

func (s *spec) check(sc *schema, v any, at string, probs *[]string, depth int) {
	s.mu.Lock()
	sc = s.resolve(sc)
	s.mu.Unlock()
	if sc == nil || depth > 8 {
		return
	}
	if v == nil {
		if !sc.Nullable && !typeAllows(sc.Type, "null") && sc.Type != nil {
			*probs = append(*probs, fmt.Sprintf("%s is null", at))
		}
		return
	}
	if want := jsonType(v); sc.Type != nil && !typeAllows(sc.Type, want) && !(want == "integer" && typeAllows(sc.Type, "number")) {
		*probs = append(*probs, fmt.Sprintf("%s is %s, want %v", at, want, sc.Type))
		return
	}
	if len(sc.Enum) > 0 && !inEnum(sc.Enum, v) {
		*probs = append(*probs, fmt.Sprintf("%s = %v is not one of %v", at, v, sc.Enum))
	}
	switch x := v.(type) {
	case map[string]any:
		for _, r := range sc.Required {
			if _, ok := x[r]; !ok {
				*probs = append(*probs, fmt.Sprintf("%s lacks the required field %q", at, r))
			}
		}
		for k, pv := range x {
			if ps, ok := sc.Properties[k]; ok {
				s.check(ps, pv, at+"."+k, probs, depth+1)
			}
		}
	case []any:
		for i, iv := range x {
			s.check(sc.Items, iv, fmt.Sprintf("%s[%d]", at, i), probs, depth+1)
		}
	}
}

func jsonType(v any) string {
	switch x := v.(type) {
	case string:
		return "string"
	case bool:
		return "boolean"
	case float64:
		if x == float64(int64(x)) {
			return "integer"
		}
		return "number"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	}
	return "null"
}

func typeAllows(t any, want string) bool {
	switch x := t.(type) {
	case string:
		return x == want
	case []any:
		for _, e := range x {
			if e == want {
				return true
			}
		}
	}
	return false
}

func inEnum(enum []any, v any) bool {
	for _, e := range enum {
		if e == v {
			return true
		}
	}
	return false
}
