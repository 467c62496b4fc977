package github

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/app/port"
)

const webhookCorpus = "../../../shared/corpus/webhooks"

// corpus returns the example payloads of one event, or skips.
func corpus(t *testing.T, event string) map[string][]byte {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(webhookCorpus, event, "*.json"))
	if len(files) == 0 {
		t.Skipf("no webhook examples for %s under %s (the shared corpus is absent)", event, webhookCorpus)
	}
	out := map[string][]byte{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = data
	}
	return out
}

// field digs a value out of decoded JSON by keys and indexes.
func field(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			l, _ := v.([]any)
			if k >= len(l) {
				return nil
			}
			v = l[k]
		}
	}
	return v
}

func str(v any) string { s, _ := v.(string); return s }
func num(v any) int64  { f, _ := v.(float64); return int64(f) }

// decodeCorpus parses each example with go-github and runs the event's
// decoder; edit may change the raw payload first.
func decodeCorpus(t *testing.T, event string, edit func(map[string]any), check func(t *testing.T, raw map[string]any, j job.Job, ok bool)) {
	for name, data := range corpus(t, event) {
		t.Run(name, func(t *testing.T) {
			var raw map[string]any
			if err := json.Unmarshal(data, &raw); err != nil {
				t.Fatal(err)
			}
			if edit != nil {
				edit(raw)
				data, _ = json.Marshal(raw)
			}
			var log bytes.Buffer
			j, ok, err := Decode(slog.New(slog.NewJSONHandler(&log, nil)), event, data)
			if err != nil {
				t.Fatalf("go-github cannot parse it: %v", err)
			}
			if ok {
				if err := j.Check(); err != nil {
					t.Errorf("decoded job: %v", err)
				}
			}
			check(t, raw, j, ok)
		})
	}
}

func checkRepo(t *testing.T, raw map[string]any, job job.Job) {
	t.Helper()
	if job.Owner != str(field(raw, "repository", "owner", "login")) || job.Repo != str(field(raw, "repository", "name")) {
		t.Errorf("repo %s/%s, want the payload's repository", job.Owner, job.Repo)
	}
	if job.InstallationID != num(field(raw, "installation", "id")) {
		t.Errorf("installation %d, want %d", job.InstallationID, num(field(raw, "installation", "id")))
	}
}

func TestDecodePullRequestExamples(t *testing.T) {
	decodeCorpus(t, "pull_request", nil, func(t *testing.T, raw map[string]any, job job.Job, ok bool) {
		if want := pullRequestActions[str(raw["action"])] && (raw["action"] != "edited" || field(raw, "changes", "base") != nil); ok != want {
			t.Fatalf("action %s: queued %v, want %v", raw["action"], ok, want)
		}
		if !ok {
			return
		}
		checkRepo(t, raw, job)
		if job.PR != int(num(field(raw, "pull_request", "number"))) || job.HeadSHA != str(field(raw, "pull_request", "head", "sha")) || job.PullRequest.BaseRef != str(field(raw, "pull_request", "base", "ref")) {
			t.Errorf("job %+v does not carry the PR's number, head and base", job)
		}
	})
}

// edited is a job only when the base changed: a retargeted PR is gated by
// its new base's config; a title or body edit changes nothing.
func TestDecodePullRequestEdited(t *testing.T) {
	for name, tc := range map[string]struct {
		changes map[string]any
		want    bool
	}{
		"retargeted":    {map[string]any{"base": map[string]any{"ref": map[string]any{"from": "lax"}, "sha": map[string]any{"from": "3333333333333333333333333333333333333333"}}}, true},
		"title edited":  {map[string]any{"title": map[string]any{"from": "wip"}}, false},
		"nothing named": {nil, false},
	} {
		t.Run(name, func(t *testing.T) {
			decodeCorpus(t, "pull_request", func(raw map[string]any) {
				raw["action"] = "edited"
				if tc.changes != nil {
					raw["changes"] = tc.changes
				}
			}, func(t *testing.T, raw map[string]any, j job.Job, ok bool) {
				if ok != tc.want || ok && !j.PullRequest.BaseChanged {
					t.Errorf("queued %v (base changed %v), want %v", ok, ok && j.PullRequest.BaseChanged, tc.want)
				}
			})
		})
	}
}

func TestDecodeWorkflowRunExamples(t *testing.T) {
	decodeCorpus(t, "workflow_run", nil, func(t *testing.T, raw map[string]any, job job.Job, ok bool) {
		if want := raw["action"] == "completed"; ok != want {
			t.Fatalf("action %s: queued %v, want %v", raw["action"], ok, want)
		}
		if !ok {
			return
		}
		checkRepo(t, raw, job)
		run := raw["workflow_run"]
		if job.WorkflowRun.RunID != num(field(run, "id")) || job.HeadSHA != str(field(run, "head_sha")) || job.WorkflowRun.Conclusion != str(field(run, "conclusion")) || job.WorkflowRun.Path != str(field(run, "path")) {
			t.Errorf("job %+v does not carry the run's id, head, conclusion and path", job)
		}
		if want := int(num(field(run, "pull_requests", 0, "number"))); job.PR != want {
			t.Errorf("PR %d, want the run's first pull request %d", job.PR, want)
		}
	})
}

// A run whose title names a command thread is queued at every step, so
// the thread's reply can follow it; its PR comes from the title when the
// run lists none (a workflow_dispatch run lists none).
func TestDecodeWorkflowRunOfAThread(t *testing.T) {
	asThread := func(raw map[string]any) {
		run := raw["workflow_run"].(map[string]any)
		run["display_title"], run["event"], run["pull_requests"] = "planwarden plan #7 pw-7-1001", "workflow_dispatch", []any{}
	}
	decodeCorpus(t, "workflow_run", asThread, func(t *testing.T, raw map[string]any, j job.Job, ok bool) {
		if !ok {
			t.Fatalf("action %s of a thread's run: not queued", raw["action"])
		}
		w := j.WorkflowRun
		if j.Action() != str(raw["action"]) || w.DisplayTitle != "planwarden plan #7 pw-7-1001" || w.Event != "workflow_dispatch" || w.Status != str(field(raw, "workflow_run", "status")) {
			t.Errorf("job %+v does not carry the action, title, event and status", w)
		}
		if want := map[bool]int{true: 0, false: 7}[raw["action"] == "completed"]; j.PR != want {
			t.Errorf("PR %d, want %d (the title's PR groups only a run that is not completed)", j.PR, want)
		}
	})
}

func TestDecodeCheckRunExamples(t *testing.T) {
	ours := func(raw map[string]any) { raw["check_run"].(map[string]any)["name"] = port.CheckName }
	decodeCorpus(t, "check_run", ours, func(t *testing.T, raw map[string]any, job job.Job, ok bool) {
		if want := raw["action"] == "rerequested"; ok != want {
			t.Fatalf("action %s: queued %v, want %v", raw["action"], ok, want)
		}
		if !ok {
			return
		}
		checkRepo(t, raw, job)
		if job.CheckRun.CheckRunID != num(field(raw, "check_run", "id")) || job.HeadSHA != str(field(raw, "check_run", "head_sha")) {
			t.Errorf("job %+v does not carry the check run's id and head", job)
		}
	})
	perProject := func(raw map[string]any) { raw["check_run"].(map[string]any)["name"] = port.CheckName + "/aks-gpu" }
	decodeCorpus(t, "check_run", perProject, func(t *testing.T, raw map[string]any, _ job.Job, ok bool) {
		if want := raw["action"] == "rerequested"; ok != want {
			t.Fatalf("a per-project check, action %s: queued %v, want %v", raw["action"], ok, want)
		}
	})
	decodeCorpus(t, "check_run", nil, func(t *testing.T, raw map[string]any, _ job.Job, ok bool) {
		if ok && !strings.HasPrefix(str(field(raw, "check_run", "name")), port.CheckName) {
			t.Errorf("queued a re-run of another app's check %q", field(raw, "check_run", "name"))
		}
	})
}

func TestDecodeIssueCommentExamples(t *testing.T) {
	asCommand := func(raw map[string]any) { raw["comment"].(map[string]any)["body"] = "/plan\r\nthanks" }
	decodeCorpus(t, "issue_comment", asCommand, func(t *testing.T, raw map[string]any, job job.Job, ok bool) {
		onPR := field(raw, "issue", "pull_request") != nil
		bot := str(field(raw, "sender", "type")) == "Bot"
		if want := raw["action"] == "created" && onPR && !bot; ok != want {
			t.Fatalf("action %s on a PR %v: queued %v, want %v", raw["action"], onPR, ok, want)
		}
		if !ok {
			return
		}
		checkRepo(t, raw, job)
		if c := job.IssueComment; c.Body != "/plan" || c.CommentID != num(field(raw, "comment", "id")) || c.Sender != str(field(raw, "sender", "login")) {
			t.Errorf("job %+v: want the command line, comment id and sender", job)
		}
	})
	decodeCorpus(t, "issue_comment", nil, func(t *testing.T, raw map[string]any, _ job.Job, ok bool) {
		if ok && !strings.HasPrefix(str(field(raw, "comment", "body")), "/") {
			t.Errorf("queued an ordinary comment")
		}
	})
}

func TestDecodeInstallationExamplesAreLoggedOnly(t *testing.T) {
	for _, event := range []string{"installation", "installation_repositories"} {
		t.Run(event, func(t *testing.T) {
			decodeCorpus(t, event, nil, func(t *testing.T, _ map[string]any, _ job.Job, ok bool) {
				if ok {
					t.Errorf("%s queued a job; it is only logged", event)
				}
			})
		})
	}
}

func TestDecodeCheckSuiteExamples(t *testing.T) {
	decodeCorpus(t, "check_suite", nil, func(t *testing.T, raw map[string]any, job job.Job, ok bool) {
		prs, _ := field(raw, "check_suite", "pull_requests").([]any)
		if want := raw["action"] == "rerequested" && len(prs) > 0; ok != want {
			t.Fatalf("action %s with %d PRs: queued %v, want %v", raw["action"], len(prs), ok, want)
		}
		if !ok {
			return
		}
		checkRepo(t, raw, job)
		if job.HeadSHA != str(field(raw, "check_suite", "head_sha")) || job.PR != int(num(field(prs[0], "number"))) {
			t.Errorf("job %+v does not carry the suite's head and PR", job)
		}
	})
}

func TestMergeGroupPR(t *testing.T) {
	for ref, want := range map[string]int{
		"refs/heads/gh-readonly-queue/main/pr-42-0123abcd":      42,
		"refs/heads/gh-readonly-queue/release/v1/pr-7-0123abcd": 7,
		"refs/heads/gh-readonly-queue/main/pr-x-0123":           0,
		"refs/heads/main": 0,
		"refs/heads/gh-readonly-queue/feature/pr-9-1/pr-10-abcdef": 10,
	} {
		if got := MergeGroupPR(ref); got != want {
			t.Errorf("MergeGroupPR(%q) = %d, want %d", ref, got, want)
		}
	}
}
