package planparse

import (
	"strings"

	"github.com/planwarden/planwarden/planparse/internal/secret"
)

// This file extends Redact to Pulumi previews and Deployment Stacks what-if
// results, so that `planwarden redact` hides in them what the review hides
// (pulumi.go, stackwhatif.go).

// inputs redacts a Pulumi preview's states, config and diagnostics, and a
// stack what-if's payloads, deltas and messages.
func (r redactor) inputs(doc map[string]any) {
	steps := list(doc["steps"])
	for _, s := range steps {
		st := obj(s)
		if u, ok := st["urn"].(string); !ok || !strings.HasPrefix(u, "urn:pulumi:") {
			continue
		}
		st["urn"] = secret.RedactKnown(st["urn"].(string), r.z.secrets)
		for _, side := range []string{"oldState", "newState"} {
			state := obj(st[side])
			if state == nil {
				continue
			}
			for _, k := range []string{"inputs", "outputs"} {
				if state[k] != nil {
					state[k] = r.z.shownOnly(nil, r.pulumiValue(state[k], ""), 0)
				}
			}
			for _, k := range []string{"urn", "parent", "importID", "id"} {
				if s, ok := state[k].(string); ok {
					state[k] = secret.Redact(s, r.z.secrets)
				}
			}
		}
	}
	if len(steps) > 0 {
		for k, v := range obj(doc["config"]) {
			if s, ok := v.(string); ok {
				obj(doc["config"])[k] = r.named(s, k)
			}
		}
		for _, d := range list(doc["diagnostics"]) {
			r.prose(obj(d), "message")
		}
	}
	props := obj(doc["properties"])
	if props == nil {
		props = doc
	}
	for _, c := range list(obj(props["changes"])["resourceChanges"]) {
		m := obj(c)
		if id, ok := m["id"].(string); ok {
			m["id"] = secret.RedactKnown(id, r.z.secrets)
		}
		rc := obj(m["resourceConfigurationChanges"])
		if rc == nil {
			continue
		}
		for _, side := range []string{"before", "after"} {
			if rc[side] != nil {
				sens, _ := armMasks(rc[side], "", false)
				rc[side] = r.value(armExpressions(rc[side]), sens)
			}
		}
		for _, d := range list(rc["delta"]) {
			r.armDelta(obj(d), "")
		}
	}
	if obj(props["changes"]) != nil {
		r.armError(obj(props["error"]))
		for _, d := range list(props["diagnostics"]) {
			r.prose(obj(d), "message")
		}
	}
}

// pulumiValue hides a Pulumi value's secrets: a signature-wrapped secret
// keeps its wrapper (so the redacted preview still reads it as a secret)
// around a placeholder for its plaintext or ciphertext; everything else is
// sanitized like a plan's value.
func (r redactor) pulumiValue(x any, key string) any {
	switch t := x.(type) {
	case map[string]any:
		if sig, _ := t[pulumiSigKey].(string); sig != "" {
			if sig != pulumiSecretSig {
				return t // an asset or archive
			}
			var v any = pulumiSecretText
			if pt, ok := t["plaintext"].(string); ok {
				if decodeNumber([]byte(pt), &v) != nil {
					v = pt
				}
			} else if ct, ok := t["ciphertext"].(string); ok {
				v = ct
			}
			return map[string]any{pulumiSigKey: pulumiSecretSig, "ciphertext": r.z.hide(v)}
		}
		for k, e := range t {
			t[k] = r.pulumiValue(e, k)
		}
		r.z.renameKeys(t)
		return t
	case []any:
		for i, e := range t {
			t[i] = r.pulumiValue(e, key)
		}
		return t
	}
	return r.z.sanitize(x, nil, nil, key)
}
