package planparse

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/planwarden/planwarden/planparse/internal/secret"
)

// This file reads Pulumi previews: `pulumi preview --json`, the
// previewDigest of Pulumi's pkg/backend/display/json.go (config, steps
// with op, urn, provider, oldState, newState, diffReasons, replaceReasons,
// detailedDiff; diagnostics; changeSummary). Parse hands it a document
// without format_version; a Terraform plan always has one, so the two
// never mix, and a Terraform plan pays nothing for the check.

// ToolPulumi is Plan.Tool for a plan read from a Pulumi preview.
const ToolPulumi = "pulumi"

// pulumiHint says how to produce a preview planwarden reads.
const pulumiHint = "produce it with `pulumi preview --json --show-replacement-steps > preview.json`"

type wirePulumi struct {
	Config      map[string]json.RawMessage `json:"config"`
	Steps       []wirePulumiStep           `json:"steps"`
	Diagnostics []struct {
		URN      string `json:"urn"`
		Prefix   string `json:"prefix"`
		Message  string `json:"message"`
		Severity string `json:"severity"`
	} `json:"diagnostics"`
}

type wirePulumiStep struct {
	Op             string           `json:"op"`
	URN            string           `json:"urn"`
	Provider       string           `json:"provider"`
	OldState       *wirePulumiState `json:"oldState"`
	NewState       *wirePulumiState `json:"newState"`
	DiffReasons    []string         `json:"diffReasons"`
	ReplaceReasons []string         `json:"replaceReasons"`
	DetailedDiff   map[string]struct {
		Kind string `json:"kind"`
	} `json:"detailedDiff"`
}

// wirePulumiState is the part of Pulumi's apitype.ResourceV3 the reader uses.
type wirePulumiState struct {
	URN      string          `json:"urn"`
	Custom   *bool           `json:"custom"`
	ID       string          `json:"id"`
	Type     string          `json:"type"`
	Inputs   json.RawMessage `json:"inputs"`
	Outputs  json.RawMessage `json:"outputs"`
	Parent   string          `json:"parent"`
	Provider string          `json:"provider"`
	ImportID string          `json:"importID"`
}

// pulumiDoc decodes the preview when w, a JSON object without
// format_version, is one: a steps list whose entries have an op and a
// Pulumi URN.
func pulumiDoc(w *wirePlan) (*wirePulumi, bool) {
	steps := bytes.TrimSpace(w.Extra["steps"])
	if len(steps) == 0 || steps[0] != '[' || !bytes.Contains(steps, []byte(`"urn:pulumi:`)) {
		return nil, false
	}
	var probe []struct {
		Op  *string `json:"op"`
		URN string  `json:"urn"`
	}
	if json.Unmarshal(steps, &probe) != nil || len(probe) == 0 {
		return nil, false
	}
	for _, s := range probe {
		if s.Op == nil || !strings.HasPrefix(s.URN, "urn:pulumi:") {
			return nil, false
		}
	}
	var doc wirePulumi
	if json.Unmarshal(steps, &doc.Steps) != nil {
		return nil, false
	}
	if c := w.Extra["config"]; len(c) > 0 {
		_ = json.Unmarshal(c, &doc.Config) // a config that is no map is no preview's: ignored
	}
	if d := w.Extra["diagnostics"]; len(d) > 0 {
		_ = json.Unmarshal(d, &doc.Diagnostics)
	}
	return &doc, true
}

// pulumiURN is a URN taken apart:
// urn:pulumi:stack::project::parentType$type::name.
type pulumiURN struct {
	typ  string // the resource's own type token, aws:s3/bucket:Bucket
	name string
}

func parsePulumiURN(urn string) (pulumiURN, error) {
	rest, ok := strings.CutPrefix(urn, "urn:pulumi:")
	parts := strings.SplitN(rest, "::", 4)
	if !ok || len(parts) != 4 || parts[2] == "" {
		return pulumiURN{}, fmt.Errorf("%s is not a Pulumi URN (urn:pulumi:stack::project::type::name)", ShownName(urn))
	}
	qualified := parts[2]
	if i := strings.LastIndexByte(qualified, '$'); i >= 0 {
		qualified = qualified[i+1:]
	}
	return pulumiURN{typ: qualified, name: parts[3]}, nil
}

// displayType is a type token as Pulumi's CLI shows it:
// aws:s3/bucket:Bucket reads aws:s3:Bucket.
func displayType(tok string) string {
	parts := strings.Split(tok, ":")
	if len(parts) == 3 {
		if i := strings.IndexByte(parts[1], '/'); i >= 0 {
			mod := parts[1][:i]
			// aws:s3/bucket:Bucket; a native provider's versioned module,
			// azure-native:compute/v20240701:VirtualMachine.
			if file := parts[1][i+1:]; strings.EqualFold(file, parts[2]) || strings.HasSuffix(parts[0], "-native") && strings.HasPrefix(file, "v") {
				return parts[0] + ":" + mod + ":" + parts[2]
			}
		}
	}
	return tok
}

// pulumiOps are the step ops a preview lists, as Pulumi's deploy.StepOp
// spells them.
var pulumiOps = []string{"same", "create", "update", "delete", "replace", "create-replacement", "delete-replaced",
	"read", "read-replacement", "refresh", "import", "import-replacement", "discard", "discard-replaced", "remove-pending-replace"}

// pulumiGroup is the steps of one URN, folded into one change.
type pulumiGroup struct {
	urn   string
	ops   []string
	steps []*wirePulumiStep
}

func (g *pulumiGroup) has(op string) bool { return slices.Contains(g.ops, op) }

// main is the step whose states the change shows: the replace step of a
// replacement, else the first.
func (g *pulumiGroup) main() *wirePulumiStep {
	for i, op := range g.ops {
		if op == "replace" {
			return g.steps[i]
		}
	}
	return g.steps[0]
}

// oldState and newState are the first of the group's steps that has one.
func (g *pulumiGroup) oldState() *wirePulumiState {
	for _, s := range g.steps {
		if s.OldState != nil {
			return s.OldState
		}
	}
	return nil
}

func (g *pulumiGroup) newState() *wirePulumiState {
	for _, s := range g.steps {
		if s.NewState != nil {
			return s.NewState
		}
	}
	return nil
}

// parsePulumi maps a preview onto the change model: one Change per
// resource URN (a replacement's steps folded into one replace), the
// stack, its providers and component resources left out; error
// diagnostics make the plan errored.
func parsePulumi(name string, doc *wirePulumi, secrets *secret.Set) (*Plan, error) {
	complete := true
	p := &Plan{File: name, Tool: ToolPulumi, Complete: &complete, lazy: &lazyPlan{}}
	var groups []*pulumiGroup
	byURN := map[string]*pulumiGroup{}
	for i := range doc.Steps {
		s := &doc.Steps[i]
		if !slices.Contains(pulumiOps, s.Op) {
			return nil, &Error{File: name, Kind: ErrNotPlan,
				Detail: secret.RedactKnown(fmt.Sprintf("steps[%d] (%s): unknown op %q (Pulumi's are %s)", i, ShownName(s.URN), ShownName(s.Op), strings.Join(pulumiOps, ", ")), secrets),
				Hint:   "the file looks hand-edited or truncated; " + pulumiHint}
		}
		if _, err := parsePulumiURN(s.URN); err != nil {
			return nil, &Error{File: name, Kind: ErrNotPlan, Detail: secret.RedactKnown(fmt.Sprintf("steps[%d].urn: %v", i, err), secrets),
				Hint: "the file looks hand-edited or truncated; " + pulumiHint}
		}
		g := byURN[s.URN]
		if g == nil {
			g = &pulumiGroup{urn: s.URN}
			byURN[s.URN] = g
			groups = append(groups, g)
		}
		g.ops = append(g.ops, s.Op)
		g.steps = append(g.steps, s)
	}
	r := newPulumiReader(doc, groups, secrets)
	for _, g := range groups {
		c, err := r.change(g)
		if err != nil {
			return nil, &Error{File: name, Kind: ErrNotPlan, Detail: secret.RedactKnown(fmt.Sprintf("step %s: %v", ShownName(g.urn), err), secrets),
				Hint: "the file looks hand-edited or truncated; " + pulumiHint}
		}
		if c != nil {
			p.Changes = append(p.Changes, c)
		}
	}
	r.uniqueAddresses(p.Changes)
	for _, d := range doc.Diagnostics {
		if !strings.EqualFold(d.Severity, "error") {
			continue
		}
		p.Errored = true
		addr := "preview"
		if u, err := parsePulumiURN(d.URN); err == nil {
			addr = r.address(d.URN, u)
		}
		p.Checks = append(p.Checks, &Check{Address: secret.RedactKnown(addr, secrets), Kind: "diagnostic", Status: "error",
			Problems: []string{secret.Redact(strings.TrimSpace(d.Prefix+d.Message), secrets)}})
	}
	p.lazy.configuration = r.providerConfiguration()
	p.lazy.secrets = secrets
	secret.Remember(secrets)
	return p, nil
}

// pulumiReader carries what the steps say about each other: parents'
// names, providers' regions, the stack's config.
type pulumiReader struct {
	secrets *secret.Set
	config  map[string]string
	// parents maps a component resource's URN to its name and parent.
	parents map[string]pulumiParent
	// providers maps a provider reference (URN::id) to its key in the
	// synthesized provider configuration ("aws", "aws.west").
	providers map[string]string
	// regions are each provider key's region and zone.
	regions map[string][2]string
	// parentOfState maps a URN to the parent URN its state names.
	parentOfState map[string]string
	// qualified is each change's address with the URN's full type token,
	// for the changes whose readable addresses collide.
	qualified map[*Change]string
	// decoded are the states' values, decoded once (secrets collected).
	decoded map[*wirePulumiState]*pulumiDecoded
}

type pulumiParent struct{ name, parent string }

func newPulumiReader(doc *wirePulumi, groups []*pulumiGroup, secrets *secret.Set) *pulumiReader {
	r := &pulumiReader{secrets: secrets, config: map[string]string{}, parents: map[string]pulumiParent{},
		providers: map[string]string{}, regions: map[string][2]string{}, parentOfState: map[string]string{},
		qualified: map[*Change]string{}, decoded: map[*wirePulumiState]*pulumiDecoded{}}
	for k, v := range doc.Config {
		var s string
		if json.Unmarshal(v, &s) == nil {
			r.config[k] = s
		}
	}
	for _, g := range groups {
		for _, s := range g.steps {
			r.decode(s.OldState) // collects every secret before anything is redacted
			r.decode(s.NewState)
		}
	}
	for _, g := range groups {
		u, _ := parsePulumiURN(g.urn)
		st := g.newState()
		if st == nil {
			st = g.oldState()
		}
		if st == nil {
			continue
		}
		r.parentOfState[g.urn] = st.Parent
		switch {
		case strings.HasPrefix(u.typ, "pulumi:providers:"):
			pkg := strings.TrimPrefix(u.typ, "pulumi:providers:")
			key := pkg
			if !strings.HasPrefix(u.name, "default") {
				key = pkg + "." + u.name
			}
			r.providers[g.urn+"::"+st.ID] = key
			r.providers[g.urn] = key
			in := pulumiObject(st.Inputs)
			region, _ := in["region"].(string)
			if region == "" {
				region, _ = in["location"].(string)
			}
			zone, _ := in["zone"].(string)
			r.regions[key] = [2]string{region, zone}
		case st.Custom != nil && !*st.Custom && u.typ != "pulumi:pulumi:Stack":
			r.parents[g.urn] = pulumiParent{name: u.name, parent: st.Parent}
		}
	}
	return r
}

// providerKey is the key of the provider a step names (URN::id); a default
// provider is its package's plain key.
func (r *pulumiReader) providerKey(ref string, typ string) string {
	if ref != "" {
		if k, ok := r.providers[ref]; ok {
			return k
		}
		if i := strings.LastIndex(ref, "::"); i >= 0 {
			if k, ok := r.providers[ref[:i]]; ok {
				return k
			}
		}
		urn := ref
		if strings.Count(ref, "::") > 3 {
			urn = ref[:strings.LastIndex(ref, "::")] // URN::id
		}
		if u, err := parsePulumiURN(urn); err == nil && strings.HasPrefix(u.typ, "pulumi:providers:") {
			pkg := strings.TrimPrefix(u.typ, "pulumi:providers:")
			if strings.HasPrefix(u.name, "default") {
				return pkg
			}
			return pkg + "." + u.name
		}
	}
	pkg, _, _ := strings.Cut(typ, ":")
	return pkg
}

// providerConfiguration is a Terraform-shaped configuration holding one
// provider block per provider the preview's resources use, with the
// region its resource or the stack's config (aws:region, gcp:zone,
// azure-native:location) gives it, so that infra finds a resource's
// region the way it does for a Terraform plan.
func (r *pulumiReader) providerConfiguration() json.RawMessage {
	keys := map[string]bool{}
	for _, k := range r.providers {
		keys[k] = true
	}
	for k := range r.config {
		if pkg, setting, ok := strings.Cut(k, ":"); ok && (setting == "region" || setting == "location" || setting == "zone") {
			keys[pkg] = true
		}
	}
	type expr struct {
		ConstantValue string `json:"constant_value"`
	}
	type block struct {
		Name        string          `json:"name"`
		Alias       string          `json:"alias,omitempty"`
		Expressions map[string]expr `json:"expressions"`
	}
	cfg := map[string]block{}
	for k := range keys {
		pkg, alias, _ := strings.Cut(k, ".")
		region, zone := r.regions[k][0], r.regions[k][1]
		if region == "" {
			region = r.config[pkg+":region"]
		}
		if region == "" {
			region = r.config[pkg+":location"]
		}
		if zone == "" {
			zone = r.config[pkg+":zone"]
		}
		b := block{Name: pkg, Alias: alias, Expressions: map[string]expr{}}
		if region != "" && region != "[secret]" {
			b.Expressions["region"] = expr{region}
		}
		if zone != "" && zone != "[secret]" {
			b.Expressions["zone"] = expr{zone}
		}
		cfg[k] = b
	}
	out, err := json.Marshal(map[string]any{"provider_config": cfg})
	if err != nil {
		return nil
	}
	return out
}

// address is the readable address of a resource: its display type and
// name, led by the names of the component resources it sits in
// (gpu-platform/aws:eks:NodeGroup::gpu).
func (r *pulumiReader) address(urn string, u pulumiURN) string {
	return r.modulePrefix(urn) + displayType(u.typ) + "::" + u.name
}

// modulePrefix is the chain of component names above a resource, each
// followed by "/"; "" at the top of the stack.
func (r *pulumiReader) modulePrefix(urn string) string {
	var names []string
	seen := map[string]bool{}
	for p := r.parentOf(urn); p != "" && !seen[p]; p = r.parents[p].parent {
		seen[p] = true
		par, ok := r.parents[p]
		if !ok {
			break
		}
		names = append(names, par.name)
	}
	slices.Reverse(names)
	if len(names) == 0 {
		return ""
	}
	return strings.Join(names, "/") + "/"
}

// parentOf is the parent URN its states give a resource.
func (r *pulumiReader) parentOf(urn string) string {
	if par, ok := r.parents[urn]; ok {
		return par.parent
	}
	return r.parentOfState[urn]
}

// uniqueAddresses gives the changes whose readable addresses collide
// (two resources of one type and name under components of one name) the
// URN's qualified type instead.
func (r *pulumiReader) uniqueAddresses(cs []*Change) {
	n := map[string]int{}
	for _, c := range cs {
		n[c.Address]++
	}
	for _, c := range cs {
		if n[c.Address] > 1 {
			if q, ok := r.qualified[c]; ok {
				c.Address = secret.RedactKnown(q, r.secrets)
			}
		}
	}
}
