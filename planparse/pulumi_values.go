package planparse

import (
	"encoding/json"
	"maps"
	"strconv"
	"strings"
)

// This file turns a Pulumi resource state into a change's values: secrets
// (the signature-wrapped secret object, "[secret]") read as sensitive,
// Pulumi's unknown sentinel as known after apply, and the classic
// (Terraform-bridged) providers' resources in their Terraform shape, so
// that every reader of a Terraform plan reads them as it reads Terraform's.

// Pulumi's wire constants (sdk/go/common/resource/sig and the RPC
// unknown value).
const (
	pulumiSigKey     = "4dabf18193072939515e22adb298388d"
	pulumiSecretSig  = "1b47061264138c4ac30d75fd1eb44270"
	pulumiUnknown    = "04da6b54-80e4-46f7-96ec-b56ff0331ba9"
	pulumiSecretText = "[secret]"
)

// pulumiSecret and pulumiUnknownValue mark a decoded value's secret and
// unknown leaves until the value is split into its masks (split).
type (
	pulumiSecret       struct{ v any }
	pulumiUnknownValue struct{}
)

// pulumiDecoded is a state's inputs and outputs, decoded with their
// special values marked.
type pulumiDecoded struct {
	inputs, outputs map[string]any
}

// decode reads a state's inputs and outputs once, adding the plaintext of
// every secret to the plan's secret set.
func (r *pulumiReader) decode(st *wirePulumiState) *pulumiDecoded {
	if st == nil {
		return &pulumiDecoded{}
	}
	if d, ok := r.decoded[st]; ok {
		return d
	}
	d := &pulumiDecoded{inputs: r.mark(pulumiObject(st.Inputs)), outputs: r.mark(pulumiObject(st.Outputs))}
	for _, m := range []map[string]any{d.inputs, d.outputs} {
		delete(m, "__meta") // the bridge's schema version
	}
	r.decoded[st] = d
	return d
}

// pulumiObject decodes a JSON object (numbers kept exact), or nil.
func pulumiObject(raw json.RawMessage) map[string]any {
	var v any
	if len(raw) == 0 || decodeNumber(raw, &v) != nil {
		return nil
	}
	m, _ := v.(map[string]any)
	return m
}

// mark replaces secrets and unknowns in m by their markers.
func (r *pulumiReader) mark(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out, _ := r.markValue(m).(map[string]any)
	return out
}

func (r *pulumiReader) markValue(x any) any {
	switch t := x.(type) {
	case string:
		switch t {
		case pulumiUnknown:
			return pulumiUnknownValue{}
		case pulumiSecretText:
			return pulumiSecret{v: pulumiSecretText}
		}
		return t
	case map[string]any:
		if sig, _ := t[pulumiSigKey].(string); sig != "" {
			if sig != pulumiSecretSig {
				return t // an asset or archive: shown as it is
			}
			if pt, ok := t["plaintext"].(string); ok {
				var v any
				if decodeNumber([]byte(pt), &v) != nil {
					v = pt
				}
				if raw, err := json.Marshal(v); err == nil {
					r.secrets.Collect(raw, []byte("true"))
				}
				return pulumiSecret{v: v}
			}
			ct, _ := t["ciphertext"].(string)
			return pulumiSecret{v: orText(ct, pulumiSecretText)}
		}
		out := make(map[string]any, len(t))
		for k, e := range t {
			if k == "__defaults" {
				continue // the bridge's list of defaulted inputs, at any depth
			}
			out[k] = r.markValue(e)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = r.markValue(e)
		}
		return out
	}
	return x
}

// overlay returns a copy of base with the entries of each of tops set over
// it, later ones winning.
func overlay(base map[string]any, tops ...map[string]any) map[string]any {
	out := make(map[string]any, len(base))
	maps.Copy(out, base)
	for _, t := range tops {
		maps.Copy(out, t)
	}
	return out
}

// sides are the before and after values of a change made from its states
// (nil for a side that does not exist).
func (r *pulumiReader) sides(g *pulumiGroup, act Action, importing bool) (before, after map[string]any) {
	oldSt, newSt := g.oldState(), g.newState()
	old, nw := r.decode(oldSt), r.decode(newSt)
	if oldSt != nil {
		before = overlay(old.inputs, old.outputs)
		if _, ok := before["id"]; !ok && oldSt.ID != "" {
			before["id"] = oldSt.ID
		}
	}
	fresh := func() map[string]any {
		v := overlay(nw.outputs, nw.inputs)
		if newSt != nil && newSt.ID != "" {
			v["id"] = newSt.ID
		} else if _, ok := v["id"]; !ok || act == ActionReplace {
			v["id"] = pulumiUnknownValue{}
		}
		return v
	}
	switch {
	case act == ActionDelete || act == ActionForget:
		return before, nil
	case newSt == nil:
		return before, before
	case act == ActionCreate || act == ActionReplace || act == ActionRead || before == nil:
		after = fresh()
		if importing || act == ActionRead {
			delete(after, "id")
			if newSt.ID != "" {
				after["id"] = newSt.ID
			}
		}
		if importing && before == nil {
			before = after
		}
		return before, after
	}
	// An update (or an unchanged resource): the old state with the new
	// inputs set over it, and inputs the program no longer gives removed.
	after = overlay(before, nw.outputs, nw.inputs)
	for k := range old.inputs {
		_, in := nw.inputs[k]
		_, out := nw.outputs[k]
		if !in && !out {
			delete(after, k)
		}
	}
	return before, after
}

// split turns a marked value into its JSON, sensitivity mask and unknown
// mask (nil masks where nothing is marked).
func split(x any) (raw, sens, unk []byte, err error) {
	v, s, u := splitValue(x)
	if raw, err = json.Marshal(v); err != nil {
		return nil, nil, nil, err
	}
	if s != nil {
		if sens, err = json.Marshal(s); err != nil {
			return nil, nil, nil, err
		}
	}
	if u != nil {
		if unk, err = json.Marshal(u); err != nil {
			return nil, nil, nil, err
		}
	}
	return raw, sens, unk, nil
}

func splitValue(x any) (v, sens, unk any) {
	switch t := x.(type) {
	case pulumiSecret:
		return t.v, true, nil
	case pulumiUnknownValue:
		return nil, nil, true
	case map[string]any:
		out, sm, um := make(map[string]any, len(t)), map[string]any{}, map[string]any{}
		for k, e := range t {
			var s, u any
			out[k], s, u = splitValue(e)
			if s != nil {
				sm[k] = s
			}
			if u != nil {
				um[k] = u
			}
		}
		if len(sm) > 0 {
			sens = sm
		}
		if len(um) > 0 {
			unk = um
		}
		return out, sens, unk
	case []any:
		out, sl, ul := make([]any, len(t)), make([]any, len(t)), make([]any, len(t))
		var anyS, anyU bool
		for i, e := range t {
			out[i], sl[i], ul[i] = splitValue(e)
			anyS, anyU = anyS || sl[i] != nil, anyU || ul[i] != nil
		}
		for i := range t {
			if sl[i] == nil {
				sl[i] = false
			}
			if ul[i] == nil {
				ul[i] = false
			}
		}
		if anyS {
			sens = sl
		}
		if anyU {
			unk = ul
		}
		return out, sens, unk
	}
	return x, nil, nil
}

// --- the Terraform shape of bridged resources ---

// pulumiMapAttrs are the attributes (in snake case) whose values are maps
// of the user's keys, not blocks: their keys are kept as they are.
var pulumiMapAttrs = map[string]bool{
	"tags": true, "tags_all": true, "labels": true, "node_labels": true, "resource_labels": true,
	"effective_labels": true, "pulumi_labels": true, "terraform_labels": true, "metadata": true,
	"annotations": true, "node_selector": true, "environment": true, "environment_variables": true,
	"variables": true, "app_settings": true, "parameters": true, "dimensions": true, "triggers": true,
	"keepers": true, "user_labels": true, "local_labels": true, "settings": true, "limits": true, "requests": true,
}

// pulumiPluralBlocks are the block lists the bridge names in the plural
// where Terraform names them in the singular.
var pulumiPluralBlocks = map[string]string{
	"taints": "taint", "guest_accelerators": "guest_accelerator", "ebs_block_devices": "ebs_block_device",
	"ephemeral_block_devices": "ephemeral_block_device", "network_interfaces": "network_interface",
	"attached_disks": "attached_disk", "scratch_disks": "scratch_disk", "admin_ssh_keys": "admin_ssh_key",
	"data_disks": "data_disk", "tags": "tag", "statements": "statement", "rules": "rule",
}

// snakeCase turns a bridged property name (vmSize, osDiskSizeGb,
// ipv4Address) back into its Terraform attribute name.
func snakeCase(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 4)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			if i > 0 && s[i-1] != '_' {
				b.WriteByte('_')
			}
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return b.String()
}

// terraformShape converts a bridged resource's value: names in snake case,
// single nested blocks (objects in Pulumi) as one-element lists, block
// lists under their Terraform names; maps of the user's keys stay as
// they are.
func terraformShape(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		name := snakeCase(k)
		out2, key := shapeAttr(name, v)
		out[key] = out2
	}
	return out
}

func shapeAttr(name string, v any) (any, string) {
	if pulumiMapAttrs[name] {
		if l, ok := v.([]any); ok && len(l) > 0 && isObjectList(l) {
			if single, ok := pulumiPluralBlocks[name]; ok {
				return shapeList(l), single
			}
		}
		return v, name
	}
	switch t := v.(type) {
	case map[string]any:
		return []any{terraformShape(t)}, name
	case []any:
		if single, ok := pulumiPluralBlocks[name]; ok && isObjectList(t) {
			name = single
		}
		return shapeList(t), name
	}
	return v, name
}

func shapeList(l []any) []any {
	out := make([]any, len(l))
	for i, e := range l {
		if m, ok := e.(map[string]any); ok {
			out[i] = terraformShape(m)
		} else {
			out[i] = e
		}
	}
	return out
}

func isObjectList(l []any) bool {
	for _, e := range l {
		if _, ok := e.(map[string]any); !ok {
			return false
		}
	}
	return len(l) > 0
}

// pulumiPath reads a Pulumi property path (defaultNodePool.vmSize,
// tags["cost-center"], productionVariants[0].instanceType) into steps.
func pulumiPath(p string) []any {
	var steps []any
	for i := 0; i < len(p); {
		switch {
		case p[i] == '.':
			i++
		case p[i] == '[' && i+1 < len(p) && p[i+1] == '"':
			j := i + 2
			for j < len(p) && (p[j] != '"' || p[j-1] == '\\') {
				j++
			}
			k, err := strconv.Unquote(p[i+1 : min(j+1, len(p))])
			if err != nil {
				k = p[i+2 : min(j, len(p))]
			}
			steps = append(steps, k)
			i = min(j+2, len(p))
		case p[i] == '[':
			j := strings.IndexByte(p[i:], ']')
			if j < 0 {
				return append(steps, p[i:])
			}
			if n, err := strconv.Atoi(p[i+1 : i+j]); err == nil {
				steps = append(steps, n)
			} else {
				steps = append(steps, p[i+1:i+j])
			}
			i += j + 1
		default:
			j := i
			for j < len(p) && p[j] != '.' && p[j] != '[' {
				j++
			}
			steps = append(steps, p[i:j])
			i = j
		}
	}
	return steps
}

// terraformPath converts a property path of a bridged resource the way
// terraformShape converts its value: names in snake case, [0] after a
// single nested block. orig is the resource's value in Pulumi's shape.
func terraformPath(steps []any, orig any) []any {
	var out []any
	cur := orig
	inMap := false
	for _, s := range steps {
		switch t := s.(type) {
		case int:
			out = append(out, t)
			if l, ok := cur.([]any); ok && t >= 0 && t < len(l) {
				cur = l[t]
			} else {
				cur = nil
			}
			inMap = false
		case string:
			m, _ := cur.(map[string]any)
			next := m[t]
			if inMap {
				out = append(out, t)
				cur, inMap = next, false
				continue
			}
			name := snakeCase(t)
			if _, isList := next.([]any); isList {
				if single, ok := pulumiPluralBlocks[name]; ok && !pulumiMapAttrs[name] {
					name = single
				}
			}
			out = append(out, name)
			if _, isObj := next.(map[string]any); isObj {
				if pulumiMapAttrs[name] {
					inMap = true
				} else {
					out = append(out, 0)
				}
			}
			cur = next
		}
	}
	return out
}
