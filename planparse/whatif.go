package planparse

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/planwarden/planwarden/planparse/internal/secret"
)

// This file reads Azure Resource Manager what-if results (Bicep and ARM
// templates): `az deployment group|sub what-if --result-format
// FullResourcePayloads --no-pretty-print --output json`, or the REST
// response with properties.changes. Parse hands it a document without
// format_version; a Terraform plan always has one, so the two never mix.

// ToolWhatIf is Plan.Tool for a plan read from an ARM what-if result.
const ToolWhatIf = "arm-what-if"

// UnknownDeployText is how a reviewer reads a what-if value ARM could not
// evaluate ([reference(...)] and other template expressions); the Value
// itself is unknown (IsUnknown), like a Terraform value known after apply.
const UnknownDeployText = "(known after deploy)"

// whatIfHint says how to produce a what-if document planwarden reads.
const whatIfHint = "produce it with `az deployment group what-if --result-format FullResourcePayloads --no-pretty-print --output json` (or `az deployment sub what-if ...`)"

// SkippedChange is a what-if entry ARM did not evaluate: Ignore (the
// resource is not in the template and the deployment leaves it alone, or
// ARM skipped it) or Unsupported (ARM cannot predict it), with ARM's reason.
type SkippedChange struct {
	Address    string
	Type       string
	ChangeType string // Ignore or Unsupported
	Reason     string
}

type wireWhatIf struct {
	Status     string          `json:"status"`
	Error      *wireARMError   `json:"error"`
	Changes    []wireARMChange `json:"changes"`
	Properties *struct {
		Changes []wireARMChange `json:"changes"`
	} `json:"properties"`
}

type wireARMError struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Details []wireARMError `json:"details"`
}

type wireARMChange struct {
	ResourceID        string            `json:"resourceId"`
	ChangeType        string            `json:"changeType"`
	UnsupportedReason string            `json:"unsupportedReason"`
	Before            json.RawMessage   `json:"before"`
	After             json.RawMessage   `json:"after"`
	Delta             []wireARMProperty `json:"delta"`
}

type wireARMProperty struct {
	Path               string            `json:"path"`
	PropertyChangeType string            `json:"propertyChangeType"`
	Before             json.RawMessage   `json:"before"`
	After              json.RawMessage   `json:"after"`
	Children           []wireARMProperty `json:"children"`
}

// IsWhatIf reports whether data is an ARM what-if result rather than a
// Terraform plan: a JSON object without format_version holding a changes
// list (at the top or under properties) whose entries have resourceId and
// changeType, or a what-if status with its error.
func IsWhatIf(data []byte) bool {
	data, err := normalize("", data)
	if err != nil {
		return false
	}
	_, ok := whatIfDoc(data)
	return ok
}

// whatIfDoc decodes data as a what-if result when it is one.
func whatIfDoc(data []byte) (*wireWhatIf, bool) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, false
	}
	var probe struct {
		FormatVersion json.RawMessage `json:"format_version"`
		Status        json.RawMessage `json:"status"`
		Error         json.RawMessage `json:"error"`
		Changes       json.RawMessage `json:"changes"`
		Properties    *struct {
			Changes json.RawMessage `json:"changes"`
		} `json:"properties"`
	}
	if json.Unmarshal(trimmed, &probe) != nil || probe.FormatVersion != nil {
		return nil, false
	}
	changes := probe.Changes
	if probe.Properties != nil && len(probe.Properties.Changes) > 0 {
		changes = probe.Properties.Changes
	}
	var entries []map[string]json.RawMessage
	switch {
	case len(changes) > 0 && json.Unmarshal(changes, &entries) == nil && len(entries) > 0:
		for _, e := range entries {
			if e["resourceId"] == nil || e["changeType"] == nil {
				return nil, false
			}
		}
	case len(changes) > 0 && entries != nil: // an empty list
		if probe.Status == nil {
			return nil, false
		}
	case probe.Status != nil && len(probe.Error) > 0 && string(probe.Error) != "null":
	default:
		return nil, false
	}
	var w wireWhatIf
	if json.Unmarshal(trimmed, &w) != nil {
		return nil, false
	}
	return &w, true
}

// parseWhatIf maps a what-if result onto the change model: one Change per
// entry that ARM evaluated, entries it skipped in Plan.Skipped.
func parseWhatIf(name string, w *wireWhatIf, secrets *secret.Set) (*Plan, error) {
	complete := true
	p := &Plan{File: name, Tool: ToolWhatIf, Complete: &complete, lazy: &lazyPlan{}}
	changes := w.Changes
	if w.Properties != nil && len(w.Properties.Changes) > 0 {
		changes = w.Properties.Changes
	}
	if w.Error != nil && (w.Error.Code != "" || w.Error.Message != "") || strings.EqualFold(w.Status, "Failed") {
		p.Errored = true
		problems := armErrors(w.Error)
		for i, m := range problems {
			problems[i] = secret.Redact(m, secrets)
		}
		p.Checks = append(p.Checks, &Check{Address: "what-if", Kind: "what-if", Status: "error", Problems: problems})
	}
	ids := make([]armID, len(changes))
	groups := map[string]bool{}
	for i, c := range changes {
		id, err := parseARMID(c.ResourceID)
		if err != nil {
			return nil, &Error{File: name, Kind: ErrNotPlan, Detail: secret.RedactKnown(fmt.Sprintf("changes[%d].resourceId: %v", i, err), secrets),
				Hint: "the file looks hand-edited or truncated; " + whatIfHint}
		}
		ids[i] = id
		if id.group != "" {
			groups[strings.ToLower(id.group)] = true
		}
	}
	for i, c := range changes {
		addr, typ := secret.RedactKnown(ids[i].address(len(groups) > 1), secrets), ids[i].typ
		if t := payloadType(c.After, c.Before); t != "" && strings.EqualFold(t, typ) {
			typ = t // the payload has ARM's own spelling
		}
		ct := strings.ToLower(c.ChangeType)
		if ct == "ignore" || ct == "unsupported" {
			reason := c.UnsupportedReason
			if reason == "" && ct == "ignore" {
				reason = "the resource is not in the template (or ARM skipped it); the deployment leaves it as it is"
			}
			p.Skipped = append(p.Skipped, &SkippedChange{Address: addr, Type: typ, ChangeType: c.ChangeType, Reason: orText(reason, "ARM gives no reason")})
			continue
		}
		ch, err := newARMChange(addr, typ, ids[i], &changes[i], secrets)
		if err != nil {
			return nil, &Error{File: name, Kind: ErrNotPlan, Detail: secret.RedactKnown(fmt.Sprintf("changes[%d] (%s): %v", i, ShownName(c.ResourceID), err), secrets),
				Hint: "the file looks hand-edited or truncated; " + whatIfHint}
		}
		p.Changes = append(p.Changes, ch)
	}
	p.lazy.secrets = secrets
	secret.Remember(secrets)
	return p, nil
}

func armErrors(e *wireARMError) []string {
	if e == nil {
		return []string{"the what-if operation failed and says no more"}
	}
	var out []string
	var walk func(e wireARMError)
	walk = func(e wireARMError) {
		if e.Code != "" || e.Message != "" {
			out = append(out, strings.TrimSpace(e.Code+": "+e.Message))
		}
		for _, d := range e.Details {
			walk(d)
		}
	}
	walk(*e)
	if len(out) == 0 {
		out = []string{"the what-if operation failed and says no more"}
	}
	return out
}

func payloadType(raws ...json.RawMessage) string {
	for _, raw := range raws {
		var v struct {
			Type string `json:"type"`
		}
		if len(raw) > 0 && json.Unmarshal(raw, &v) == nil && v.Type != "" {
			return v.Type
		}
	}
	return ""
}

// armID is a resource id taken apart.
type armID struct {
	subscription, group string
	// path is everything after the first providers/ segment:
	// Microsoft.ContainerService/managedClusters/ml-prod/agentPools/gpu.
	path string
	typ  string // Microsoft.ContainerService/managedClusters/agentPools
	name string
}

// parseARMID reads /subscriptions/S/resourceGroups/G/providers/NS/T/N[/T2/N2...],
// with extension resources (.../providers/NS2/T/N) and resource groups
// and subscriptions themselves.
func parseARMID(id string) (armID, error) {
	segs := strings.Split(strings.Trim(id, "/"), "/")
	if id == "" || !strings.HasPrefix(id, "/") || len(segs) < 2 {
		return armID{}, fmt.Errorf("%s is not an ARM resource id (/subscriptions/.../providers/Namespace/type/name)", ShownName(id))
	}
	var r armID
	i := 0
	for i+1 < len(segs) && !strings.EqualFold(segs[i], "providers") {
		switch strings.ToLower(segs[i]) {
		case "subscriptions":
			r.subscription = segs[i+1]
		case "resourcegroups":
			r.group = segs[i+1]
		}
		i += 2
	}
	if i >= len(segs) {
		// A resource group or subscription itself.
		switch {
		case r.group != "":
			return armID{subscription: r.subscription, path: "resourceGroups/" + r.group, typ: "Microsoft.Resources/resourceGroups", name: r.group}, nil
		case r.subscription != "":
			return armID{subscription: r.subscription, path: "subscriptions/" + r.subscription, typ: "Microsoft.Resources/subscriptions", name: r.subscription}, nil
		}
		return armID{}, fmt.Errorf("%s is not an ARM resource id", ShownName(id))
	}
	rest := segs[i+1:] // after the first providers
	r.path = strings.Join(rest, "/")
	// The type is the last provider namespace with the type segments after it.
	last := 0
	for j := range rest {
		if strings.EqualFold(rest[j], "providers") && j+1 < len(rest) {
			last = j + 1
		}
	}
	ext := rest[last:]
	if len(ext) < 3 || len(ext)%2 == 0 {
		return armID{}, fmt.Errorf("%s has no Namespace/type/name after providers", ShownName(id))
	}
	types := []string{ext[0]}
	for j := 1; j+1 < len(ext); j += 2 {
		types = append(types, ext[j])
	}
	r.typ = strings.Join(types, "/")
	r.name = ext[len(ext)-1]
	return r, nil
}

// address is the readable form of the id: the provider path, led by the
// resource group when the what-if spans more than one.
func (r armID) address(multiGroup bool) string {
	if multiGroup && r.group != "" {
		return "resourceGroups/" + r.group + "/" + r.path
	}
	return r.path
}

func newARMChange(addr, typ string, id armID, w *wireARMChange, secrets *secret.Set) (*Change, error) {
	c := &Change{Address: addr, Mode: ModeManaged, Type: typ, Name: id.name, Provider: strings.SplitN(typ, "/", 2)[0]}
	var effective int
	c.whatIf = &whatIfDiff{}
	for _, d := range w.Delta {
		n, err := c.whatIf.add(d.Path, d, secrets)
		if err != nil {
			return nil, fmt.Errorf("delta %s: %w", ShownName(d.Path), err)
		}
		effective += n
	}
	switch strings.ToLower(w.ChangeType) {
	case "create":
		c.Action = ActionCreate
	case "delete":
		c.Action = ActionDelete
	case "modify":
		c.Action = ActionUpdate
		if len(w.Delta) > 0 && effective == 0 {
			c.Action = ActionNoop
			c.Reason = "every property change ARM lists has no effect"
		}
	case "deploy":
		c.Action = ActionUpdate
		if effective == 0 {
			c.Reason = "ARM redeploys it and cannot tell whether its properties change"
		}
	case "nochange":
		c.Action = ActionNoop
	default:
		return nil, fmt.Errorf("unknown changeType %q (ARM's are Create, Delete, Modify, Deploy, NoChange, Ignore, Unsupported)", ShownName(w.ChangeType))
	}
	before, err := armValue(w.Before, "", false)
	if err != nil {
		return nil, fmt.Errorf("before: %w", err)
	}
	after, err := armValue(w.After, "", true)
	if err != nil {
		return nil, fmt.Errorf("after: %w", err)
	}
	if c.Action == ActionCreate && len(w.Delta) == 0 {
		c.whatIf.fromPayload(after, false, secrets)
	}
	if c.Action == ActionDelete && len(w.Delta) == 0 {
		c.whatIf.fromPayload(before, true, secrets)
	}
	sort.SliceStable(c.whatIf.diffs, func(i, j int) bool { return c.whatIf.diffs[i].Path < c.whatIf.diffs[j].Path })
	z := &sanitizer{secrets: secrets}
	c.before = z.resolveAt(before.raw, before.sens, nil, "", &c.lb)
	c.after = z.resolveAt(after.raw, after.sens, after.unk, "", &c.la)
	if before.raw == nil && after.raw == nil && c.Action != ActionNoop && c.Reason == "" {
		// --result-format ResourceIdOnly: no SKU, count, region or tags to read.
		c.Reason = "the what-if has no payloads for it: run it with --result-format FullResourcePayloads"
	}
	return c, nil
}

// armPayload is a what-if payload with the masks that make it read like a
// plan value: ARM secret properties marked sensitive, unevaluated template
// expressions marked unknown.
type armPayload struct{ raw, sens, unk json.RawMessage }

// armValue reads a payload, or a delta leaf under the property key.
func armValue(raw json.RawMessage, key string, markUnknown bool) (armPayload, error) {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return armPayload{}, nil
	}
	var v any
	if err := decodeNumber(raw, &v); err != nil {
		return armPayload{}, err
	}
	sens, unk := armMasks(v, key, markUnknown)
	out := armPayload{raw: raw}
	if sens != nil {
		out.sens, _ = json.Marshal(sens)
	}
	if unk != nil {
		out.unk, _ = json.Marshal(unk)
	}
	return out, nil
}

// armMasks returns the sensitivity and unknown masks of v (nil where
// nothing below is marked). key is the property v sits under.
func armMasks(v any, key string, markUnknown bool) (sens, unk any) {
	if key != "" && secret.IsARMName(key) && secret.Hideable(v) {
		return true, nil
	}
	switch t := v.(type) {
	case string:
		if markUnknown && isARMExpression(t) {
			return nil, true
		}
	case map[string]any:
		sm, um := map[string]any{}, map[string]any{}
		for k, e := range t {
			s, u := armMasks(e, k, markUnknown)
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
	case []any:
		sl, ul := make([]any, len(t)), make([]any, len(t))
		var anyS, anyU bool
		for i, e := range t {
			sl[i], ul[i] = armMasks(e, key, markUnknown)
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
	}
	return sens, unk
}

// isARMExpression reports whether s is a template expression ARM left
// unevaluated ("[reference(...)]"); "[[" starts an escaped literal.
func isARMExpression(s string) bool {
	return len(s) >= 2 && s[0] == '[' && s[len(s)-1] == ']' && !strings.HasPrefix(s, "[[")
}

// whatIfDiff is a what-if change's attribute diff, taken from ARM's delta
// (or, for a create or delete without one, from its payload), sanitized.
type whatIfDiff struct{ diffs []AttrDiff }

// add flattens one delta entry under path and returns how many effective
// (not NoEffect) leaves it holds.
func (d *whatIfDiff) add(path string, p wireARMProperty, secrets *secret.Set) (int, error) {
	kind := strings.ToLower(p.PropertyChangeType)
	if kind == "noeffect" {
		return 0, nil
	}
	if len(p.Children) > 0 {
		n := 0
		for _, ch := range p.Children {
			k, err := d.add(childPath(path, ch.Path), ch, secrets)
			if err != nil {
				return 0, err
			}
			n += k
		}
		return n, nil
	}
	leaf := path
	if i := strings.LastIndexAny(path, ".]"); i >= 0 {
		leaf = path[i+1:]
	}
	before, err := deltaValue(p.Before, leaf, false, secrets)
	if err != nil {
		return 0, err
	}
	after, err := deltaValue(p.After, leaf, true, secrets)
	if err != nil {
		return 0, err
	}
	switch kind {
	case "create":
		before = Value{}
	case "delete":
		after = Value{}
	}
	if before.Equal(after) && kind != "create" && kind != "delete" {
		return 0, nil
	}
	d.diffs = append(d.diffs, AttrDiff{Path: secret.RedactKnown(path, secrets), Before: before, After: after,
		Unknown: after.IsUnknown(), Sensitive: before.IsSensitive() || after.IsSensitive()})
	return 1, nil
}

// childPath joins a child's path to its parent's: array elements as
// [i], properties as .name.
func childPath(parent, child string) string {
	if _, err := strconv.Atoi(child); err == nil {
		return parent + "[" + child + "]"
	}
	if parent == "" {
		return child
	}
	return parent + "." + child
}

func deltaValue(raw json.RawMessage, key string, markUnknown bool, secrets *secret.Set) (Value, error) {
	p, err := armValue(raw, key, markUnknown)
	if err != nil || len(p.raw) == 0 {
		return Value{}, err
	}
	return decodeValue(p.raw, p.sens, p.unk, secrets)
}

// fromPayload lists every leaf of a created (or deleted) resource's
// payload, as Terraform's plan shows a create, skipping ARM's own
// bookkeeping (id, type, apiVersion).
func (d *whatIfDiff) fromPayload(p armPayload, deleted bool, secrets *secret.Set) {
	v, err := decodeValue(p.raw, p.sens, p.unk, secrets)
	if err != nil || v.IsNull() {
		return
	}
	var walk func(path string, x any)
	walk = func(path string, x any) {
		switch t := x.(type) {
		case map[string]any:
			keys := make([]string, 0, len(t))
			for k := range t {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				if path == "" && (k == "id" || k == "type" || k == "apiVersion") {
					continue
				}
				walk(childPath(path, k), t[k])
			}
		case []any:
			if len(t) == 0 {
				return
			}
			for i, e := range t {
				walk(path+"["+strconv.Itoa(i)+"]", e)
			}
		case nil:
		default:
			ad := AttrDiff{Path: path, After: Value{v: t}, Unknown: Value{v: t}.IsUnknown(), Sensitive: Value{v: t}.IsSensitive()}
			if deleted {
				ad.Before, ad.After, ad.Unknown = ad.After, Value{}, false
			}
			d.diffs = append(d.diffs, ad)
		}
	}
	walk("", v.v)
}

// attrDiffs returns a copy of the diff, so a caller cannot change it.
func (d *whatIfDiff) attrDiffs() []AttrDiff { return append([]AttrDiff(nil), d.diffs...) }

func orText(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

// orWhatIfHint adds to the error of a JSON object that is no plan how to
// produce a what-if instead, when nothing says it is a state file.
func orWhatIfHint(err error) error {
	if e, ok := err.(*Error); ok && e.Detail == "it has no format_version" {
		e.Hint += "; for Bicep or ARM templates, " + whatIfHint
	}
	return err
}
