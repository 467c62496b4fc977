package planparse

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"fmt"

	"github.com/planwarden/planwarden/planparse/internal/secret"
)

// Redact returns the plan in data with every value a sensitivity mark
// covers, and every value, map key and instance key the secret detector
// finds, replaced by a placeholder: "(sensitive) " and eight hex digits of
// an HMAC under a key drawn for this call, so equal secrets keep equal
// placeholders (a diff still shows that a secret changed) and no
// placeholder can be checked against a guess. Every other string the
// comment would not show (shown.go) becomes a text placeholder
// (redact_text.go), a JSON document in a string its structure with each
// leaf judged alike, and check messages, ARM errors and diagnostics read
// as ShownProse shows them, in every section: changes, drift, outputs,
// checks, variables, configuration, prior_state, planned_values, action
// invocations, what-if results and Pulumi previews. Structure,
// sensitivity marks and unknown markers are kept, so planwarden's review
// of the redacted plan, change digests included, is the review of the
// original. `terraform show -json` writes
// sensitive values in clear text; this is the file to upload as a CI
// artifact instead.
//
// Object keys come out sorted and numbers as written. A file Parse refuses
// gets the same *Error.
func Redact(name string, data []byte) ([]byte, error) {
	p, err := Parse(name, data)
	if err != nil {
		return nil, err
	}
	data, _ = normalize(name, data)
	var doc map[string]any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return nil, syntaxError(name, data, err)
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("redact %s: draw a key: %w", name, err)
	}
	r := redactor{z: sanitizer{secrets: p.lazy.secrets, redactKey: key}}
	r.plan(doc)
	r.extra(doc) // redact_extra.go: action invocations, ARM what-if
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("redact %s: encode: %w", name, err)
	}
	return out.Bytes(), nil
}

type redactor struct{ z sanitizer }

func (r redactor) plan(doc map[string]any) {
	for _, k := range []string{"resource_changes", "resource_drift"} {
		for _, rc := range list(doc[k]) {
			r.resourceChange(obj(rc))
		}
	}
	for _, d := range list(doc["deferred_changes"]) {
		r.resourceChange(obj(obj(d)["resource_change"]))
		if m := obj(d); m != nil {
			if s, ok := m["reason"].(string); ok {
				m["reason"] = ShownProse(secret.Redact(s, r.z.secrets))
			}
		}
	}
	for name, oc := range obj(doc["output_changes"]) {
		r.outputChange(name, obj(oc))
	}
	r.z.renameKeys(obj(doc["output_changes"]))
	r.stateValues(obj(doc["planned_values"]))
	r.stateValues(obj(obj(doc["prior_state"])["values"]))
	r.variables(obj(doc["variables"]), obj(obj(obj(doc["configuration"])["root_module"])["variables"]))
	r.z.renameKeys(obj(doc["variables"]))
	r.configuration(doc["configuration"], "")
	for _, c := range list(doc["checks"]) {
		r.check(obj(c))
	}
	for _, ra := range list(doc["relevant_attributes"]) {
		m := obj(ra)
		r.address(m, "resource")
		r.path(m["attribute"])
	}
}

// address redacts the instance keys of the address at m[field].
func (r redactor) address(m map[string]any, field string) {
	if s, ok := m[field].(string); ok {
		m[field] = r.z.redactAddress(s)
	}
}

func (r redactor) index(m map[string]any) {
	switch s := m["index"].(type) {
	case string:
		if r.z.secretKey(s) {
			m["index"] = r.z.keyText(s)
		}
	case map[string]any, []any:
		// Not an index Terraform writes, but the review shows it.
		m["index"] = r.value(s, nil)
	}
}

// path redacts the secret map keys of a path given as a list of steps.
func (r redactor) path(p any) {
	steps := list(p)
	for i, s := range steps {
		if k, ok := s.(string); ok && r.z.secretKey(k) {
			steps[i] = r.z.keyText(k)
		}
	}
}

// value hides what mark covers and what the detector finds in v, and then
// every text the comment would not show (shownOnly), v sitting at the
// given path steps; the mark tree (and the unknown tree) get the same
// renamed keys as v.
func (r redactor) value(v, mark any, steps ...string) any {
	return r.z.shownOnly(steps, r.z.sanitize(v, mark, nil, ""), 0)
}

// named is value for a value the detector judges under its name.
func (r redactor) named(v any, name string) any {
	return r.z.shownOnly([]string{name}, r.z.sanitize(v, nil, nil, name), 0)
}

// prose is a message as the review shows it (ShownProse).
func (r redactor) prose(m map[string]any, field string) {
	if s, ok := m[field].(string); ok {
		m[field] = ShownProse(secret.Redact(s, r.z.secrets))
	}
}

// marks renames the secret keys of a sensitivity or unknown tree.
func (r redactor) marks(t any) {
	switch m := t.(type) {
	case map[string]any:
		for _, e := range m {
			r.marks(e)
		}
		r.z.renameKeys(m)
	case []any:
		for _, e := range m {
			r.marks(e)
		}
	}
}

func (r redactor) resourceChange(rc map[string]any) {
	if rc == nil {
		return
	}
	r.address(rc, "address")
	r.address(rc, "previous_address")
	r.address(rc, "module_address")
	r.index(rc)
	for _, k := range []string{"deposed", "action_reason"} {
		if t, ok := rc[k].(string); ok {
			rc[k] = ShownName(secret.Redact(t, r.z.secrets))
		}
	}
	c := obj(rc["change"])
	if c == nil {
		return
	}
	c["before"] = r.value(c["before"], c["before_sensitive"])
	c["after"] = r.value(c["after"], c["after_sensitive"])
	for _, k := range []string{"before_sensitive", "after_sensitive", "after_unknown"} {
		r.marks(c[k])
	}
	for _, p := range list(c["replace_paths"]) {
		r.path(p)
	}
	if imp := obj(c["importing"]); imp != nil {
		if id, ok := imp["id"].(string); ok {
			imp["id"] = ShownName(secret.Redact(id, r.z.secrets))
		}
	}
	if g, ok := c["generated_config"].(string); ok {
		c["generated_config"] = r.z.shownOnly(nil, secret.Redact(g, r.z.secrets), 0)
	}
}

// outputChange mirrors newOutput: a secret-looking output name hides both sides.
func (r redactor) outputChange(name string, oc map[string]any) {
	if oc == nil {
		return
	}
	oc["before"] = r.value(oc["before"], oc["before_sensitive"], name)
	oc["after"] = r.value(oc["after"], oc["after_sensitive"], name)
	if IsSecretName(name) {
		if secret.Hideable(oc["before"]) {
			oc["before"] = r.z.hide(oc["before"])
		}
		if u, _ := oc["after_unknown"].(bool); secret.Hideable(oc["after"]) && !u {
			oc["after"] = r.z.hide(oc["after"])
		}
	}
	for _, k := range []string{"before_sensitive", "after_sensitive", "after_unknown"} {
		r.marks(oc[k])
	}
}

// stateValues redacts planned_values or prior_state.values.
func (r redactor) stateValues(v map[string]any) {
	if v == nil {
		return
	}
	for name, o := range obj(v["outputs"]) {
		m := obj(o)
		if m == nil {
			continue
		}
		if b, _ := m["sensitive"].(bool); b || IsSecretName(name) && secret.Hideable(m["value"]) {
			if m["value"] != nil {
				m["value"] = r.z.hide(m["value"])
			}
			continue
		}
		m["value"] = r.value(m["value"], nil, name)
	}
	r.z.renameKeys(obj(v["outputs"]))
	r.module(obj(v["root_module"]))
}

func (r redactor) module(m map[string]any) {
	if m == nil {
		return
	}
	r.address(m, "address")
	for _, res := range list(m["resources"]) {
		rm := obj(res)
		if rm == nil {
			continue
		}
		r.address(rm, "address")
		r.index(rm)
		rm["values"] = r.value(rm["values"], rm["sensitive_values"])
		r.marks(rm["sensitive_values"])
	}
	for _, c := range list(m["child_modules"]) {
		r.module(obj(c))
	}
}

// variables hides the values of variables the configuration declares
// sensitive, and what the detector finds in the others.
func (r redactor) variables(vars, decl map[string]any) {
	for name, v := range vars {
		m := obj(v)
		if m == nil || m["value"] == nil {
			continue
		}
		if b, _ := obj(decl[name])["sensitive"].(bool); b {
			m["value"] = r.z.hide(m["value"])
			continue
		}
		m["value"] = r.named(m["value"], name)
	}
}

// configuration mirrors decodeExpr: each constant_value is sanitized under
// its attribute's name; a variable's default is hidden when the variable
// is sensitive and sanitized under its name otherwise.
// References, sources and names are configuration text and stay.
func (r redactor) configuration(x any, name string) {
	switch t := x.(type) {
	case map[string]any:
		if name == "outputs" || name == "variables" {
			r.z.renameKeys(t)
		}
		if cv, ok := t["constant_value"]; ok && name != "" {
			t["constant_value"] = r.z.shownOnly([]string{name}, r.z.constant(name, cv), 0)
		}
		if d, ok := t["default"]; ok && d != nil {
			if b, _ := t["sensitive"].(bool); b {
				t["default"] = r.z.hide(d)
			} else {
				t["default"] = r.named(d, name)
			}
		}
		for k, e := range t {
			if k != "constant_value" && k != "default" {
				r.configuration(e, k)
			}
		}
	case []any:
		for _, e := range t {
			r.configuration(e, name)
		}
	}
}

func (r redactor) check(c map[string]any) {
	if c == nil {
		return
	}
	r.address(obj(c["address"]), "to_display")
	for _, in := range list(c["instances"]) {
		im := obj(in)
		r.address(obj(im["address"]), "to_display")
		if a := obj(im["address"]); a != nil {
			if k, ok := a["instance_key"].(string); ok && r.z.secretKey(k) {
				a["instance_key"] = r.z.keyText(k)
			}
		}
		for _, pr := range list(im["problems"]) {
			r.prose(obj(pr), "message")
		}
	}
}

func obj(x any) map[string]any { m, _ := x.(map[string]any); return m }
func list(x any) []any         { l, _ := x.([]any); return l }
