package planparse

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// planWith is a plan of one update of typ.x from before to after.
func planWith(t *testing.T, typ string, before, after map[string]any) *Plan {
	t.Helper()
	data, err := json.Marshal(map[string]any{"format_version": "1.2", "resource_changes": []any{map[string]any{
		"address": typ + ".x", "mode": "managed", "type": typ, "name": "x",
		"change": map[string]any{"actions": []string{"update"}, "before": before, "after": after}}}})
	if err != nil {
		t.Fatal(err)
	}
	p, err := Parse("plan.json", data)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

var digestRE = regexp.MustCompile(`^\(text, 3 lines, [0-9a-f]{8}\)$`)

func TestViewerValue(t *testing.T) {
	t.Parallel()
	w := NewViewer([]byte("k"), nil)
	script := "#!/bin/bash\nmysql -uroot -pHx7pQ2mK9v -e 'select 1'\n/opt/app/start\n"
	p := planWith(t, "aws_instance", map[string]any{}, map[string]any{
		"instance_type": "p4d.24xlarge", "user_data": script, "count": 3, "ebs_optimized": true, "gone": nil,
		"container": []any{map[string]any{"args": []any{"--api-token", "Hx7pQ2mK9v"}, "image": "app:1.2"}},
		"triggers":  map[string]any{"docker login -p Hx7pQ2mK9v": "1", "sha": "abc"},
	})
	after := p.Changes[0].After()
	tests := map[string]struct {
		path string
		want Shown
	}{
		"a SKU whole":               {"instance_type", Shown{Text: "p4d.24xlarge", Whole: true}},
		"a number":                  {"count", Shown{Text: "3"}},
		"a boolean":                 {"ebs_optimized", Shown{Text: "true"}},
		"null":                      {"gone", Shown{Text: "null"}},
		"arguments each summarized": {"container", Shown{Text: `[{"args":["` + w.summary("--api-token") + `","` + w.summary("Hx7pQ2mK9v") + `"],"image":"app:1.2"}]`}},
		"a key that is no name":     {"triggers", Shown{Text: `{"(sensitive) ` + sanitizer{}.keyText("docker login -p Hx7pQ2mK9v")[len("(sensitive) "):] + `":"1","sha":"abc"}`}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := w.Value(Place{Type: "aws_instance", Address: "aws_instance.x", Path: tc.path}, after.Get(tc.path))
			if got != tc.want {
				t.Errorf("Value(%s) = %+v, want %+v", tc.path, got, tc.want)
			}
		})
	}
	got := w.Value(Place{Path: "user_data"}, after.Get("user_data"))
	if !digestRE.MatchString(got.Text) || got.Whole || strings.Contains(got.Text, "Hx7pQ2mK9v") {
		t.Errorf("a script reads %+v, want (text, 3 lines, 8 hex digits)", got)
	}
}

// The digest is keyed: the same text under one key reads the same (a
// reviewer sees it unchanged), under another key differently, and it is
// not an unkeyed hash anyone could recompute from a guess.
func TestViewerDigestIsKeyed(t *testing.T) {
	t.Parallel()
	a1, a2, b := NewViewer([]byte("pr-1 key"), nil), NewViewer([]byte("pr-1 key"), nil), NewViewer([]byte("pr-2 key"), nil)
	const s = "export DB_PASS=Hx7pQ2mK9v"
	if a1.digest(s) != a2.digest(s) {
		t.Error("one key gives two digests of one text")
	}
	if a1.digest(s) == b.digest(s) {
		t.Error("two keys give one digest: the key is not used")
	}
	if a1.digest(s) == a1.digest(s+" ") {
		t.Error("two texts give one digest")
	}
	var none *Viewer
	if none.digest(s) != NewViewer(nil, nil).digest(s) || none.digest(s) == a1.digest(s) {
		t.Error("a nil Viewer and a Viewer without a key share the process key, apart from a given key")
	}
}

func TestViewerDocuments(t *testing.T) {
	t.Parallel()
	w := NewViewer([]byte("k"), nil)
	policy := `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"s3:GetObject","Resource":"arn:aws:s3:::ml/*","Condition":{"StringEquals":{"aws:Referer":"https://x.example/?t=Hx7pQ2mK9v"}}}]}`
	defs := `[{"name":"web","image":"app:1.2","command":["sh","-c","sshpass -p Hx7pQ2mK9v ssh ops@bastion"],"environment":[{"name":"MODE","value":"prod"}]}]`
	tests := map[string]struct {
		path, doc string
		want      string
	}{
		"an IAM policy: structure, a leaf with a query summarized": {"policy", policy,
			`{"Statement":[{"Action":"s3:GetObject","Condition":{"StringEquals":{"aws:Referer":"` + w.summary("https://x.example/?t=Hx7pQ2mK9v") + `"}},"Effect":"Allow","Resource":"arn:aws:s3:::ml/*"}],"Version":"2012-10-17"}`},
		"container definitions: commands and environment values summarized, names shown": {"container_definitions", defs,
			`[{"command":["` + w.summary("sh") + `","` + w.summary("-c") + `","` + w.summary("sshpass -p Hx7pQ2mK9v ssh ops@bastion") + `"],"environment":[{"name":"MODE","value":"` + w.summary("prod") + `"}],"image":"app:1.2","name":"web"}]`},
		"maxDocDepth: a fourth document inside three is text": {"doc", `{"a":"{\"b\":\"{\\\"c\\\":\\\"{}\\\"}\"}"}`,
			`{"a":"{\"b\":\"{\\\"c\\\":\\\"` + w.summary("{}") + `\\\"}\"}"}`},
		"not a document: braces around text": {"doc", "{ not json }", w.summary("{ not json }")},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := planWith(t, "aws_ecs_task_definition", map[string]any{}, map[string]any{tc.path: tc.doc})
			got := w.Value(Place{Path: tc.path}, p.Changes[0].After().Get(tc.path))
			if got.Text != tc.want {
				t.Errorf("got  %s\nwant %s", got.Text, tc.want)
			}
			if strings.Contains(got.Text, "Hx7pQ2mK9v") {
				t.Error("the password shows")
			}
		})
	}
}

func TestViewerDiff(t *testing.T) {
	t.Parallel()
	w := NewViewer([]byte("k"), nil)
	before := map[string]any{"user_data": "#!/bin/sh\na\nb\n", "policy": `{"Statement":[{"Action":"s3:GetObject","Effect":"Allow"}]}`,
		"instance_type": "g5.xlarge", "tags": map[string]any{"team": "ml"}, "args": []any{"--token", "old0ld0ld"}}
	after := map[string]any{"user_data": "#!/bin/sh\na\nB\nc\n", "policy": `{"Statement":[{"Action":"*","Effect":"Allow"}]}`,
		"instance_type": "g5.2xlarge", "tags": map[string]any{"team": "ml", "owner": "ML Platform"}, "args": []any{"--token", "n3wn3wn3w"}}
	p := planWith(t, "aws_instance", before, after)
	byPath := map[string]ShownDiff{}
	for _, d := range w.Diff(p.Changes[0]) {
		byPath[d.Path] = d
	}
	tests := map[string]ShownDiff{
		"user_data": {Path: "user_data", Op: '~', Text: "(text, 3 -> 4 lines, +2 -1, " + w.digest("#!/bin/sh\na\nb\n") + " -> " + w.digest("#!/bin/sh\na\nB\nc\n") + ")"},
		"policy » Statement[0].Action": {Path: "policy » Statement[0].Action", Op: '~',
			Before: Shown{Text: "s3:GetObject", Whole: true}, After: Shown{Text: "*", Whole: true}},
		"instance_type": {Path: "instance_type", Op: '~', Before: Shown{Text: "g5.xlarge", Whole: true}, After: Shown{Text: "g5.2xlarge", Whole: true}},
		"tags.owner":    {Path: "tags.owner", Op: '+', Before: Shown{Text: "null"}, After: Shown{Text: "ML Platform", Whole: true}},
		"args[1]":       {Path: "args[1]", Op: '~', Text: "(text, 1 line, +1 -1, " + w.digest("old0ld0ld") + " -> " + w.digest("n3wn3wn3w") + ")"},
	}
	for path, want := range tests {
		if got := byPath[path]; got != want {
			t.Errorf("%s: got %+v\nwant %+v", path, got, want)
		}
	}
	if len(byPath) != len(tests) {
		t.Errorf("%d diff lines, want %d: %+v", len(byPath), len(tests), byPath)
	}

	// comment.show_text: the place opted in shows its text (the twin above
	// summarizes it).
	full := NewViewer([]byte("k"), func(typ, addr string) bool { return typ == "aws_instance" })
	for _, d := range full.Diff(p.Changes[0]) {
		if d.Path == "user_data" && (d.Text != "" || d.After != Shown{Text: after["user_data"].(string), Whole: true}) {
			t.Errorf("show_text: user_data reads %+v, want the script whole", d)
		}
	}
}

func TestViewerLeaves(t *testing.T) {
	t.Parallel()
	w := NewViewer([]byte("k"), nil)
	p := planWith(t, "x", map[string]any{}, map[string]any{
		"function_name": "drain", "payload": `{"grace":"300s"}`, "empty": []any{}, "none": map[string]any{},
		"m": map[string]any{"a b": 1, "mysql -pHx7pQ2mK9v": 2}, "command": "kubectl drain --force",
	})
	var got []string
	w.Leaves(Place{Type: "x", Address: "x.x"}, p.Changes[0].After(), func(path string, s Shown) {
		got = append(got, path+"="+s.Text)
	})
	key := sanitizer{}.keyText("mysql -pHx7pQ2mK9v")
	want := []string{
		"command=" + w.summary("kubectl drain --force"),
		"empty=[]",
		"function_name=drain",
		`m["a b"]=1`,
		`m["` + key + `"]=2`,
		`payload={"grace":"300s"}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("leaves:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// An instance key that is not safe to show reads as a placeholder in
// every address (a change's, an action's), as a secret key does; a key
// that is a name shows.
func TestAddressKeysByAllowList(t *testing.T) {
	t.Parallel()
	data := `{"format_version":"1.2","resource_changes":[
{"address":"aws_ssm_parameter.p[\"mysql -pHx7pQ2mK9v\"]","mode":"managed","type":"aws_ssm_parameter","name":"p","index":"mysql -pHx7pQ2mK9v","change":{"actions":["create"],"after":{}}},
{"address":"aws_ssm_parameter.p[\"eu-west-1\"]","mode":"managed","type":"aws_ssm_parameter","name":"p","index":"eu-west-1","change":{"actions":["create"],"after":{}}}],
"action_invocations":[{"address":"action.aws_lambda_invoke.run[\"rediss://:Hx7pQ2mK9v@cache\"]","type":"aws_lambda_invoke","name":"run",
"config_values":{},"lifecycle_action_trigger":{"triggering_resource_address":"aws_ssm_parameter.p[\"mysql -pHx7pQ2mK9v\"]","action_trigger_event":"AfterCreate"}}]}`
	p, err := Parse("plan.json", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	hidden := []string{p.Changes[0].Address, p.Changes[0].Index, p.Actions[0].Address, p.Actions[0].TriggeringResource}
	for _, s := range hidden {
		if strings.Contains(s, "Hx7pQ2mK9v") || !strings.Contains(s, "(sensitive) ") {
			t.Errorf("%q: want the key as a placeholder", s)
		}
	}
	if p.Actions[0].TriggeringResource != p.Changes[0].Address {
		t.Errorf("the action's triggering resource %q is not its change's address %q", p.Actions[0].TriggeringResource, p.Changes[0].Address)
	}
	if got := p.Changes[1].Address; got != `aws_ssm_parameter.p["eu-west-1"]` {
		t.Errorf("a region key reads %q, want it shown", got)
	}
}
