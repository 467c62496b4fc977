package planparse

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	tfjson "github.com/hashicorp/terraform-json"

	"github.com/planwarden/planwarden/par"
	"github.com/planwarden/planwarden/planparse/internal/jsonscan"
	"github.com/planwarden/planwarden/planparse/internal/mem"
	"github.com/planwarden/planwarden/planparse/internal/secret"
)

// wirePlan is the part of the plan format planparse reads eagerly (see
// readPlan). Attribute values and sections stay slices of the input until
// a caller asks for them, which keeps a 20,000-resource plan cheap to review.
type wirePlan struct {
	FormatVersion    *string
	TerraformVersion string
	Timestamp        string
	Errored          bool
	Complete         *bool
	Applyable        *bool
	ResourceChanges  wireList
	ResourceDrift    wireList
	OutputChanges    map[string]wireChange
	DeferredChanges  []wireDeferred
	Checks           []tfjson.CheckResultStatic
	PriorState       rawJSON
	PlannedValues    rawJSON
	Configuration    rawJSON
	Variables        rawJSON
	Values           rawJSON // a state file has this at top level
	Serial, Lineage  bool    // present in a raw state file
	// Extra holds the top-level fields planparse does not model, as
	// slices of the input, for readers of newer parts of the format.
	Extra map[string]json.RawMessage

	// Terraform 1.14+ actions, read by readActions (actions.go).
	ActionInvocations         rawJSON
	DeferredActionInvocations rawJSON

	// notes are what the reader saw in values for the secret set
	// (secretnotes.go).
	notes *secret.Notes
	// marked is the set of values resource_changes and resource_drift
	// mark sensitive, filled as they are read (readChanges).
	marked *secret.Set
	// searched are the records of resource_changes and resource_drift
	// that show strings outside values collectFound searches (instance
	// keys, replace paths, import ids), found as they are read.
	searched []*Change
	// priorScan and plannedScan are what the reader recorded of
	// prior_state's and planned_values' resources (stateindex.go).
	priorScan, plannedScan stateScan
}

// wireChange is a change's actions and values (of a resource change, the
// rest is in its wireRecord and Change: read.go).
type wireChange struct {
	Actions         tfjson.Actions
	Before          rawJSON
	After           rawJSON
	AfterUnknown    rawJSON
	BeforeSensitive rawJSON
	AfterSensitive  rawJSON
}

type wireDeferred struct {
	Reason string
	// rec and Change are its resource_change (read.go), Change nil for
	// none.
	rec    wireResource
	Change *Change
}

// rawJSON is a JSON value left undecoded until a caller asks for it: a
// slice of the bytes given to Parse (not a copy), which the caller must
// not modify afterwards (Parse says so). JSON null is nil.
type rawJSON []byte

// Parse reads one plan. name is used in errors and kept as Plan.File.
// The plan refers to data, and its strings (addresses, names) may be views
// of it: do not modify data afterwards, and keep it readable (mapped) as
// long as the plan or a string read from it is in use.
// The bytes of Plan.SparseRanges (prior_state, planned_values) are read
// again only by lookups into those sections, each for the resources it
// asks for: a caller that mapped the file may release their pages after
// Parse, as long as they stay readable (they read back from the file).
// It accepts UTF-8 (with or without a byte-order mark) and UTF-16 with a
// byte-order mark, every plan format_version from 0.1 to 1.x, and refuses
// anything else with an *Error.
func Parse(name string, data []byte) (*Plan, error) {
	return parse(name, data, par.Policy{})
}

// parse is Parse making the changes on two goroutines, and reading
// prior_state on a second goroutine, where the policy splits that work
// (par.PlanChanges, par.PriorState; readsplit.go).
func parse(name string, data []byte, pol par.Policy) (*Plan, error) {
	in := data
	data, err := normalize(name, data)
	if err != nil {
		return nil, err
	}
	w, err := readPlanSplit(data, pol)
	if err != nil {
		return nil, syntaxError(name, data, err)
	}
	if w.FormatVersion == nil {
		if wi, ok := whatIfDoc(data); ok {
			secrets := secret.NewSet()
			w.notes.Learn(secrets)
			return parseWhatIf(name, wi, secrets) // whatif.go
		}
		if pd, ok := pulumiDoc(w); ok {
			secrets := secret.NewSet()
			w.notes.Learn(secrets)
			return parsePulumi(name, pd, secrets) // pulumi.go
		}
		if sd, ok := stackWhatIfDoc(data); ok {
			secrets := secret.NewSet()
			w.notes.Learn(secrets)
			return parseStackWhatIf(name, sd, secrets) // stackwhatif.go
		}
		return nil, orWhatIfHint(notPlan(name, w))
	}
	// terraform-json's own format_version check.
	if err := (&tfjson.Plan{FormatVersion: *w.FormatVersion}).Validate(); err != nil {
		return nil, &Error{File: name, Kind: ErrUnsupportedVersion, Detail: "format_version " + ShownName(*w.FormatVersion) + " is not a plan format planwarden reads",
			Hint: "planwarden reads plan format 0.1 to 1.x; upgrade planwarden or produce the plan with a Terraform/OpenTofu release it supports"}
	}
	if w.ResourceChanges.Len() == 0 && len(w.Values) > 0 && len(w.PlannedValues) == 0 {
		return nil, &Error{File: name, Kind: ErrNotPlan, Detail: "this is `terraform show -json` of a state, not of a plan",
			Hint: "pass the plan file to `terraform show -json`: " + showHint}
	}
	plannedSensitive := sensitiveOutputs(w.plannedScan.outputs)
	secrets := collectSecrets(w, plannedSensitive)
	collectFound(w, secrets) // secretnotes.go
	actions, deferredActions, err := readActions(name, w.ActionInvocations, w.DeferredActionInvocations, secrets)
	if err != nil {
		return nil, err
	}
	members := newMemberCache() // shared by the plan's values
	p := &Plan{
		File:             name,
		FormatVersion:    *w.FormatVersion,
		TerraformVersion: w.TerraformVersion,
		Timestamp:        w.Timestamp,
		Errored:          w.Errored,
		Complete:         w.Complete,
		Applyable:        w.Applyable,
		Actions:          actions,
		DeferredActions:  deferredActions,
		lazy:             &lazyPlan{configuration: json.RawMessage(w.Configuration), variables: w.Variables, secrets: secrets},
		sparse:           sparseRanges(in, data, w),
	}
	p.lazy.prior.build(w.PriorState, data, &w.priorScan, sanitizer{secrets: secrets, members: members})
	p.lazy.planned.build(w.PlannedValues, data, &w.plannedScan, sanitizer{secrets: secrets, members: members})
	z := &sanitizer{secrets: secrets, members: members} // shared by the plan's values
	// The changes are made a chunk of the read's records at a time, one
	// allocation a chunk, and each chunk of records is let go once made:
	// the records and the changes are never all live together (on a
	// 100,000-change plan that was 36 MB more live heap as Parse ended,
	// and a collector goal set that much higher for the rest of a review).
	// A big plan's changes are made on two goroutines (readsplit.go).
	p.Changes = make([]*Change, w.ResourceChanges.Len())
	if e := newChanges(&w.ResourceChanges, z, p.Changes, pol.Split(par.PlanChanges, len(data))); e != nil {
		line, col := lineCol(data, int64(e.at))
		return nil, &Error{File: name, Kind: ErrNotPlan, Line: line, Column: col, Detail: fmt.Sprintf("resource_changes[%d] (%s): %v", e.i, shownAddress(secrets, e.address), e.err),
			Hint: "the file looks hand-edited or truncated; " + showHint}
	}
	i := 0
	for rec, read := range w.ResourceDrift.All() {
		address := read.Address
		c, err := newChange(rec, z, read)
		if err != nil {
			line, col := lineCol(data, int64(rec.at))
			return nil, &Error{File: name, Kind: ErrNotPlan, Line: line, Column: col, Detail: fmt.Sprintf("resource_drift[%d] (%s): %v", i, shownAddress(secrets, address), err), Hint: showHint}
		}
		p.Drift = append(p.Drift, c)
		i++
	}
	for i := range w.DeferredChanges {
		d := &w.DeferredChanges[i]
		if d.Change == nil {
			d.Change = &Change{} // a null or absent resource_change
		}
		c, err := newChange(&d.rec, z, d.Change)
		if err != nil {
			return nil, &Error{File: name, Kind: ErrNotPlan, Detail: fmt.Sprintf("deferred_changes[%d]: %v", i, err), Hint: showHint}
		}
		p.Deferred = append(p.Deferred, &DeferredChange{Reason: secret.Redact(deferredReason(d.Reason), secrets), Change: c})
	}
	for n, oc := range w.OutputChanges {
		if _, ok := plannedSensitive[n]; ok {
			// Older plans mark sensitivity only in planned_values.outputs.
			oc.AfterSensitive = rawJSON("true")
		}
		o, err := newOutput(n, oc, secrets)
		if z.secretKey(n) {
			// An output named after a secret (a for_each key turned name)
			// reads like a secret map key.
			n = z.keyText(n)
		}
		if err != nil {
			return nil, &Error{File: name, Kind: ErrNotPlan, Detail: fmt.Sprintf("output_changes.%s: %v", ShownName(n), err), Hint: showHint}
		}
		o.Name = n
		p.Outputs = append(p.Outputs, o)
	}
	sort.Slice(p.Outputs, func(i, j int) bool { return p.Outputs[i].Name < p.Outputs[j].Name })
	for _, c := range w.Checks {
		p.Checks = append(p.Checks, newChecks(c, secrets)...)
	}
	secret.Remember(secrets)
	return p, nil
}

// normalize strips a UTF-8 BOM, decodes UTF-16 with a BOM, and recognises
// binary plans and setup-terraform wrapper output.
func normalize(name string, data []byte) ([]byte, error) {
	switch {
	case len(bytes.TrimSpace(data)) == 0:
		return nil, &Error{File: name, Kind: ErrEmptyInput, Detail: "the file is empty", Hint: showHint}
	case bytes.HasPrefix(data, []byte{0xEF, 0xBB, 0xBF}):
		data = data[3:]
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE}), bytes.HasPrefix(data, []byte{0xFE, 0xFF}):
		return decodeUTF16(data), nil
	case bytes.HasPrefix(data, []byte("PK\x03\x04")):
		return nil, &Error{File: name, Kind: ErrBinaryPlan, Detail: "this is a binary plan file (`terraform plan -out`), not JSON",
			Hint: "convert it with `terraform show -json " + name + " > plan.json` and review the JSON"}
	}
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if len(trimmed) > 0 && (trimmed[0] != '{' && trimmed[0] != '[' || bytes.HasPrefix(trimmed, []byte("[command]"))) {
		if looksLikeWrapper(trimmed) {
			return nil, &Error{File: name, Kind: ErrWrapperOutput,
				Detail: "the file starts with text before the JSON (setup-terraform's wrapper writes `[command]` and `::debug::` lines into stdout)",
				Hint:   "set `terraform_wrapper: false` on hashicorp/setup-terraform, or run `terraform show -json` with the real binary (`$(which terraform-bin)`)"}
		}
		if !utf8.Valid(trimmed[:min(len(trimmed), 512)]) {
			return nil, &Error{File: name, Kind: ErrBinaryPlan, Detail: "the file is binary, not JSON",
				Hint: "if it is a plan file from `terraform plan -out`, convert it: " + showHint}
		}
	}
	return data, nil
}

// looksLikeWrapper recognises hashicorp/setup-terraform's wrapper text
// ("[command]...terraform-bin show -json", "::debug::", "::set-output").
func looksLikeWrapper(b []byte) bool {
	head := b[:min(len(b), 4096)]
	return bytes.HasPrefix(b, []byte("[command]")) || bytes.HasPrefix(b, []byte("::")) ||
		bytes.Contains(head, []byte("::debug::")) || bytes.Contains(head, []byte("terraform-bin"))
}

func decodeUTF16(b []byte) []byte {
	big := b[0] == 0xFE
	b = b[2:]
	u := make([]uint16, len(b)/2)
	for i := range u {
		if big {
			u[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
		} else {
			u[i] = uint16(b[2*i+1])<<8 | uint16(b[2*i])
		}
	}
	return []byte(string(utf16.Decode(u)))
}

func syntaxError(name string, data []byte, err error) error {
	e := &Error{File: name, Kind: ErrNotJSON, Detail: err.Error(), Hint: "make sure the file holds only `terraform show -json` output; " + showHint}
	var se *jsonscan.SyntaxError
	var ke *jsonscan.KindError
	switch {
	case errors.As(err, &se):
		e.Line, e.Column = lineCol(data, int64(se.Off))
		if strings.Contains(se.Msg, "nested deeper") {
			e.Kind = ErrNotPlan
			e.Hint = "the file is not `terraform show -json` output (or was built to exhaust readers); " + showHint
		}
		if bytes.Count(bytes.TrimSpace(data), []byte("\n")) > 0 && se.Off > 0 && strings.Contains(se.Msg, "after top-level value") {
			e.Detail = "more than one JSON document, or text after the JSON: " + se.Msg
		}
	case errors.As(err, &ke):
		e.Kind = ErrNotPlan
		e.Line, e.Column = lineCol(data, int64(ke.Off))
		e.Detail = ke.Error()
		e.Hint = "the file looks hand-edited or truncated; " + showHint
		if ke.Field == "" {
			e.Detail = "the JSON is not an object; a plan is an object with format_version and resource_changes"
			e.Line, e.Column = 0, 0
		}
	}
	return e
}

// lineCol returns the 1-based line and column of the byte at off.
func lineCol(data []byte, off int64) (int, int) {
	off = max(0, min(off, int64(len(data))))
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(off) - bytes.LastIndexByte(before, '\n')
	if col < 1 {
		col = 1
	}
	return line, col
}

func notPlan(name string, w *wirePlan) error {
	detail := "it has no format_version"
	switch {
	case w.Serial || w.Lineage:
		detail = "this is a raw Terraform state file (it has serial/lineage)"
	case w.ResourceChanges.Len() > 0:
		detail = "it has resource_changes but no format_version"
	}
	return &Error{File: name, Kind: ErrNotPlan, Detail: detail, Hint: showHint}
}

// newChange makes c, a resource change's Change as read (read.go: its
// strings as the plan has them), from it and its record: it redacts the
// strings, resolves the values and maps actions and reason.
func newChange(w *wireResource, z *sanitizer, c *Change) (*Change, error) {
	act, order, err := action(w.Change.Actions)
	if err != nil {
		// The error quotes the actions: one may be a plan's secret.
		return nil, errors.New(secret.Redact(err.Error(), z.secrets))
	}
	c.Address = z.redactAddress(c.Address)
	c.PreviousAddress = z.redactAddress(c.PreviousAddress)
	c.ModuleAddress = z.redactAddress(c.ModuleAddress)
	if c.Deposed != "" {
		// Terraform's random key; read as any text a comment may show.
		c.Deposed = secret.Redact(c.Deposed, z.secrets)
	}
	c.before = z.resolveAt(w.Change.Before, w.Change.BeforeSensitive, nil, "", &c.lb)
	c.after = z.resolveAt(w.Change.After, w.Change.AfterSensitive, w.Change.AfterUnknown, "", &c.la)
	if c.Mode == "" {
		c.Mode = ModeManaged
	}
	if c.Index != "" && c.Index != "null" {
		c.Index = z.redactIndex(c.Index)
	} else {
		c.Index = ""
	}
	c.Action, c.ReplaceOrder = act, order
	c.ReasonCode, c.Reason = actionReason(c.ReasonCode)
	for i, rp := range c.ReplacePaths {
		c.ReplacePaths[i] = formatPath(jsonscan.Bytes(rp), *z)
	}
	if c.Importing != nil {
		c.Importing.ID = secret.Redact(c.Importing.ID, z.secrets)
		c.Importing.GeneratedConfig = w.generated
	}
	return c, nil
}

// action maps Terraform's action list onto one Action. Replace is checked
// before create and delete, as both start a replace.
func action(a tfjson.Actions) (Action, ReplaceOrder, error) {
	switch {
	case a.DestroyBeforeCreate():
		return ActionReplace, DeleteThenCreate, nil
	case a.CreateBeforeDestroy():
		return ActionReplace, CreateThenDelete, nil
	case a.Create():
		return ActionCreate, "", nil
	case a.Delete():
		return ActionDelete, "", nil
	case a.Update():
		return ActionUpdate, "", nil
	case a.Read():
		return ActionRead, "", nil
	case a.NoOp():
		return ActionNoop, "", nil
	case a.Forget():
		return ActionForget, "", nil
	case len(a) == 0:
		return ActionNoop, "", nil
	}
	return "", "", fmt.Errorf("field actions: %s is not a list of Terraform's actions (create, read, update, delete, no-op, forget)", shownActions(a))
}

var reasons = map[string]string{
	"replace_because_cannot_update":     "an attribute that cannot be updated in place changed",
	"replace_because_tainted":           "the object is tainted",
	"replace_by_request":                "replacement was requested (-replace)",
	"replace_by_triggers":               "replace_triggered_by fired",
	"delete_because_no_resource_config": "its configuration was removed",
	"delete_because_wrong_repetition":   "its count/for_each mode changed",
	"delete_because_count_index":        "its index is beyond the new count",
	"delete_because_each_key":           "its key is no longer in for_each",
	"delete_because_no_module":          "its module was removed",
	"delete_because_no_move_target":     "it was moved to an address with no configuration",
	"read_because_config_unknown":       "its configuration depends on values known only after apply",
	"read_because_dependency_pending":   "it depends on resources with pending changes",
	"read_because_check_nested":         "it is read inside a check block",
}

// actionReason returns the known keyword and its words; unknown keywords mean none.
func actionReason(code string) (string, string) {
	if words, ok := reasons[code]; ok {
		return code, words
	}
	return "", ""
}

func deferredReason(r string) string {
	switch r {
	case "instance_count_unknown":
		return "its count or for_each is not known yet"
	case "resource_config_unknown":
		return "its configuration is not known yet"
	case "provider_config_unknown":
		return "its provider configuration is not known yet"
	case "absent_prereq":
		return "a resource it needs does not exist yet"
	case "deferred_prereq":
		return "a resource it depends on was deferred"
	}
	if r == "" {
		return "no reason given"
	}
	return "deferred (" + r + ")"
}

// formatPath renders a replace path ["default_node_pool",0,"vm_size"] as
// default_node_pool[0].vm_size.
// Secret map keys read as the sanitizer shows them in values.
func formatPath(raw json.RawMessage, z sanitizer) string {
	x, err := jsonscan.Decode(raw)
	steps, ok := x.([]any)
	if err != nil || !ok {
		return string(raw)
	}
	path := make([]any, 0, len(steps))
	for _, s := range steps {
		if f, ok := s.(float64); ok {
			s = int(f)
		}
		if k, ok := s.(string); ok && z.members.secretStep(&z, k) { // remembered per plan: paths repeat attribute names
			s = z.keyText(k)
		}
		path = append(path, s)
	}
	// The same renderer as attribute diffs, so ForcesReplacement can match.
	return pathString(path)
}

func newOutput(name string, w wireChange, secrets *secret.Set) (*OutputChange, error) {
	act, _, err := action(w.Actions)
	if err != nil {
		return nil, errors.New(secret.Redact(err.Error(), secrets))
	}
	if act == ActionReplace {
		act = ActionUpdate
	}
	o := &OutputChange{Name: name, Action: act}
	bs, as := isTrue(w.BeforeSensitive), isTrue(w.AfterSensitive)
	o.Sensitive = bs || as
	if o.Before, err = decodeValue(w.Before, w.BeforeSensitive, nil, secrets); err != nil {
		return nil, err
	}
	if o.After, err = decodeValue(w.After, w.AfterSensitive, w.AfterUnknown, secrets); err != nil {
		return nil, err
	}
	if IsSecretName(name) {
		// A boolean is no secret by its name alone (secret.Hideable).
		b, a := o.Before.tree(), o.After.tree()
		o.Sensitive = o.Sensitive || secret.Hideable(b) || secret.Hideable(a) || b == nil && a == nil
		if secret.Hideable(b) {
			o.Before = Value{v: redact(b)}
		}
		if secret.Hideable(a) && !o.After.IsUnknown() {
			o.After = Value{v: redact(a)}
		}
	}
	return o, nil
}

func isTrue(raw []byte) bool { return string(bytes.TrimSpace(raw)) == "true" }

// newChecks converts one check result; instance keys and messages are
// redacted like addresses and prose (an error_message may quote a value).
func newChecks(c tfjson.CheckResultStatic, secrets *secret.Set) []*Check {
	z := sanitizer{secrets: secrets}
	kind := string(c.Address.Kind)
	if len(c.Instances) == 0 {
		return []*Check{{Address: z.redactAddress(c.Address.ToDisplay), Kind: kind, Status: string(c.Status)}}
	}
	var out []*Check
	for _, in := range c.Instances {
		ch := &Check{Address: z.redactAddress(in.Address.ToDisplay), Kind: kind, Status: string(in.Status)}
		if ch.Address == "" {
			ch.Address = z.redactAddress(c.Address.ToDisplay)
		}
		for _, pr := range in.Problems {
			ch.Problems = append(ch.Problems, secret.Redact(pr.Message, secrets))
		}
		out = append(out, ch)
	}
	return out
}

// collectSecrets gathers every value the plan marks sensitive: resource
// and output changes, and the values of root variables the configuration
// declares sensitive. Only changes that carry a mark are decoded here.
func collectSecrets(w *wirePlan, plannedSensitive map[string]json.RawMessage) *secret.Set {
	s := w.marked // the changes' and the drift's (readChanges)
	for i := range w.DeferredChanges {
		c := &w.DeferredChanges[i].rec.Change
		s.Collect(c.Before, c.BeforeSensitive)
		s.Collect(c.After, c.AfterSensitive)
	}
	for _, o := range w.OutputChanges {
		s.Collect(o.Before, o.BeforeSensitive)
		s.Collect(o.After, o.AfterSensitive)
	}
	for _, v := range plannedSensitive {
		s.Collect(v, json.RawMessage("true"))
	}
	for _, m := range []*mem.Chunks[[2][]byte]{&w.priorScan.marked, &w.plannedScan.marked} {
		m.Each(func(vs *[2][]byte) { s.Collect(vs[0], vs[1]) })
	}
	// The section tests first: finding root_module's variables walks the
	// configuration, and most plans declare no sensitive variable.
	if len(w.Variables) == 0 || !marksSensitive(w.Configuration) {
		return s
	}
	if cfgVars := jsonscan.Member(jsonscan.Member(w.Configuration, "root_module"), "variables"); marksSensitive(cfgVars) {
		var decl map[string]struct {
			Sensitive bool `json:"sensitive"`
		}
		var vars map[string]struct {
			Value json.RawMessage `json:"value"`
		}
		if json.Unmarshal(cfgVars, &decl) == nil && json.Unmarshal(w.Variables, &vars) == nil {
			for name, v := range decl {
				if v.Sensitive {
					s.Collect(vars[name].Value, json.RawMessage("true"))
				}
			}
		}
	}
	return s
}

// sensitiveOutputs returns the values of the outputs planned_values marks
// sensitive (older plans mark them only there), given planned_values'
// "outputs" (recorded by the read: stateScan.outputs).
func sensitiveOutputs(outputs []byte) map[string]json.RawMessage {
	if !marksSensitive(outputs) {
		return nil
	}
	var pv map[string]struct {
		Sensitive bool            `json:"sensitive"`
		Value     json.RawMessage `json:"value"`
	}
	if json.Unmarshal(outputs, &pv) != nil {
		return nil
	}
	out := map[string]json.RawMessage{}
	for n, o := range pv {
		if o.Sensitive {
			out[n] = o.Value
		}
	}
	return out
}

// marksSensitive is a cheap pre-check before decoding a section for its
// sensitivity flags.
func marksSensitive(raw []byte) bool {
	return bytes.Contains(raw, []byte(`"sensitive":true`)) || bytes.Contains(raw, []byte(`"sensitive": true`))
}

// shownActions are a change's actions as an error may quote them.
func shownActions(a tfjson.Actions) string {
	xs := make([]string, len(a))
	for i, x := range a {
		xs[i] = string(x)
	}
	return shownList(xs)
}
