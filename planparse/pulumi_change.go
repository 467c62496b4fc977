package planparse

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/planwarden/planwarden/planparse/internal/secret"
)

// change makes the Change of one resource's steps, or nil for what is no
// cloud resource (the stack, a provider, a component resource).
func (r *pulumiReader) change(g *pulumiGroup) (*Change, error) {
	u, _ := parsePulumiURN(g.urn)
	if u.typ == "pulumi:pulumi:Stack" || strings.HasPrefix(u.typ, "pulumi:providers:") {
		return nil, nil
	}
	st := g.newState()
	if st == nil {
		st = g.oldState()
	}
	if st != nil && st.Custom != nil && !*st.Custom {
		return nil, nil // a component resource: its children are the changes
	}
	main := g.main()
	typ, shape := pulumiType(u.typ)
	addr := secret.RedactKnown(r.address(g.urn, u), r.secrets)
	c := &Change{Address: addr, ModuleAddress: strings.TrimSuffix(r.modulePrefix(g.urn), "/"), Mode: ModeManaged, Type: typ,
		Name: secret.RedactKnown(u.name, r.secrets)}
	r.qualified[c] = r.modulePrefix(g.urn) + u.typ + "::" + u.name
	prov := main.Provider
	if prov == "" && st != nil {
		prov = st.Provider
	}
	c.Provider = r.providerKey(prov, u.typ)
	importing := false
	switch {
	case g.has("read") || g.has("read-replacement"):
		c.Action, c.Mode = ActionRead, ModeData
	case g.has("replace") || g.has("create-replacement") || g.has("delete-replaced") || g.has("import-replacement"):
		c.Action, c.ReplaceOrder = ActionReplace, CreateThenDelete
		del, cre := slices.Index(g.ops, "delete-replaced"), slices.Index(g.ops, "create-replacement")
		if del >= 0 && (cre < 0 || del < cre) {
			c.ReplaceOrder = DeleteThenCreate
		}
	default:
		switch g.ops[0] {
		case "create":
			c.Action = ActionCreate
		case "update":
			c.Action = ActionUpdate
		case "delete":
			c.Action, c.Reason = ActionDelete, "it is no longer in the Pulumi program"
		case "import":
			c.Action, importing = ActionNoop, true
		case "refresh":
			c.Action, c.Reason = ActionNoop, "the preview refreshes it from the cloud"
		case "discard", "discard-replaced":
			c.Action, c.Reason = ActionForget, "Pulumi stops tracking it (a read resource); the object is not deleted"
		default: // same, remove-pending-replace
			c.Action = ActionNoop
		}
	}
	if importing || g.has("import-replacement") {
		id := ""
		if ns := g.newState(); ns != nil {
			id = orText(ns.ImportID, ns.ID)
		}
		c.Importing = &Import{ID: secret.Redact(id, r.secrets)}
	}
	before, after := r.sides(g, c.Action, importing)
	if c.Action == ActionReplace {
		c.ReplacePaths = r.replacePaths(main, shape, before, after)
		if len(c.ReplacePaths) > 0 {
			c.ReasonCode, c.Reason = actionReason("replace_because_cannot_update")
		}
	}
	z := &sanitizer{secrets: r.secrets}
	var err error
	if c.before, err = r.value(z, before, shape, &c.lb); err != nil {
		return nil, fmt.Errorf("oldState: %w", err)
	}
	if c.after, err = r.value(z, after, shape, &c.la); err != nil {
		return nil, fmt.Errorf("newState: %w", err)
	}
	return c, nil
}

// value shapes one side and resolves it like a plan's value.
func (r *pulumiReader) value(z *sanitizer, m map[string]any, shape pulumiShape, at *lazy) (Value, error) {
	if m == nil {
		return Value{}, nil
	}
	var x any = m
	switch shape {
	case shapeTerraform:
		x = terraformShape(m)
	case shapeManifest:
		x = map[string]any{"manifest": m}
	case shapeHelm:
		x = helmShape(m)
	}
	raw, sens, unk, err := split(x)
	if err != nil {
		return Value{}, err
	}
	return z.resolveAt(raw, sens, unk, "", at), nil
}

// helmShape gives a Pulumi Helm release the attributes of Terraform's
// helm_release: name, chart, namespace, and values as a list of YAML
// documents (JSON is YAML).
func helmShape(m map[string]any) map[string]any {
	out := map[string]any{}
	for _, k := range []string{"name", "chart", "namespace", "version"} {
		if v, ok := m[k]; ok {
			out[k] = v
		}
	}
	if vals, ok := m["values"].(map[string]any); ok {
		plain, sens, _ := splitValue(vals)
		if sens != nil {
			out["values"] = []any{pulumiSecret{v: pulumiSecretText}}
		} else if b, err := json.Marshal(plain); err == nil {
			out["values"] = []any{string(b)}
		}
	}
	return out
}

// replacePaths are the attributes forcing a replacement: the detailed
// diff's *-replace entries, else the step's replaceReasons, in the
// Terraform shape for a bridged resource.
func (r *pulumiReader) replacePaths(s *wirePulumiStep, shape pulumiShape, before, after map[string]any) []string {
	var paths []string
	for p, d := range s.DetailedDiff {
		if strings.HasSuffix(d.Kind, "-replace") {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	if len(paths) == 0 {
		paths = append(paths, s.ReplaceReasons...)
	}
	orig := after
	if orig == nil {
		orig = before
	}
	z := sanitizer{secrets: r.secrets}
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		steps := pulumiPath(p)
		if shape == shapeTerraform {
			steps = terraformPath(steps, orig)
		}
		for i, st := range steps {
			if k, ok := st.(string); ok && z.secretKey(k) {
				steps[i] = z.keyText(k)
			}
		}
		if path := secret.RedactKnown(pathString(steps), r.secrets); !slices.Contains(out, path) {
			out = append(out, path)
		}
	}
	return out
}
