package comment

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	gtext "github.com/yuin/goldmark/text"

	"github.com/planwarden/planwarden/record"
)

var deadline = time.Date(2026, 12, 2, 10, 10, 0, 0, time.UTC)

const runURL = "https://github.com/acme/ml-infra/actions/runs/77"

// replyCases are the command replies as users see them; the golden files
// are testdata/replies/<case>.md (go test ./comment -update rewrites them).
var replyCases = map[string]string{
	"plan-dispatched": PlanReply{Thread: "pw-7-1001", By: "alice", Run: Run{Workflow: "planwarden-plan.yml", Ref: "feature-7"}}.Markdown(),
	"plan-queued": PlanReply{Thread: "pw-7-1001", By: "alice", Projects: []string{"aks-gpu"},
		Run: Run{Workflow: "planwarden-plan.yml", Ref: "feature-7", ID: 77, URL: runURL, Status: "queued"}}.Markdown(),
	"plan-in-progress": PlanReply{Thread: "pw-7-1001", By: "alice", Projects: []string{"aks-gpu", "sagemaker"},
		Run: Run{Workflow: "planwarden-plan.yml", Ref: "feature-7", ID: 77, URL: runURL, Status: "in_progress"}}.Markdown(),
	"plan-completed": PlanReply{Thread: "pw-7-1001", By: "alice", Verdict: "fail", CheckURL: "https://github.com/acme/ml-infra/runs/5",
		Run: Run{Workflow: "planwarden-plan.yml", Ref: "feature-7", ID: 77, URL: runURL, Status: "completed", Conclusion: "success"}}.Markdown(),
	"plan-run-failed": PlanReply{Thread: "pw-7-1001", By: "alice",
		Run: Run{Workflow: "planwarden-plan.yml", Ref: "feature-7", ID: 77, URL: runURL, Status: "completed", Conclusion: "failure"}}.Markdown(),
	"destroy-awaiting": DestroyReply{Thread: "pw-7-1002", By: "alice", Environment: "staging", Projects: []string{"sagemaker"},
		Resources: []string{"aws_sagemaker_endpoint.main", "aws_sagemaker_endpoint_configuration.main"}, More: 3,
		PlanRun: Run{ID: 70, URL: "https://github.com/acme/ml-infra/actions/runs/70"}, Deadline: deadline, ConfirmByOther: true, Stage: record.DestroyAwaiting}.Markdown(),
	"destroy-no-plan":    DestroyReply{Thread: "pw-7-1002", By: "alice", Environment: "staging", Declared: []string{"sagemaker", "feature-store"}, Deadline: deadline, Stage: record.DestroyAwaiting}.Markdown(),
	"destroy-expired":    DestroyReply{Thread: "pw-7-1002", By: "alice", Environment: "staging", Deadline: deadline, Stage: record.DestroyExpired}.Markdown(),
	"destroy-superseded": DestroyReply{Thread: "pw-7-1002", By: "alice", Environment: "staging", Deadline: deadline, Stage: record.DestroySuperseded}.Markdown(),
	"destroy-succeeded": DestroyReply{Thread: "pw-7-1002", By: "alice", Environment: "staging", Deadline: deadline, Stage: record.DestroyConfirmed, ConfirmedBy: "bob",
		Run: Run{Workflow: "destroy-staging.yml", Ref: "main", ID: 78, URL: runURL, Status: "completed", Conclusion: "success"}}.Markdown(),
	"refused": Refusal("pw-7-1003", "/plan", "unknown project `aks-gpuu`; expected one of `aks-gpu`, `sagemaker` (did you mean `aks-gpu`?)"),
	"help": Help{Thread: "pw-7-1004", ConfigFile: ".github/planwarden.yml", Branch: "main", PlanWorkflow: "planwarden-plan.yml",
		Projects: []string{"aks-gpu", "sagemaker"}, Protected: []string{"prod"},
		Destroyable: []HelpEnvironment{{Name: "staging", Workflow: "destroy-staging.yml", ConfirmByOther: true}},
		Overrides: []HelpOverride{{Rule: "gpu-sku-loss", Users: []string{"alice"}, Teams: []string{"acme/ml-platform"}, Labels: []string{"planwarden/accept-gpu-change"}},
			{Rule: "*", Teams: []string{"acme/sre"}, Where: []string{"staging"}}}}.Markdown(),
	"help-defaults": Help{Thread: "pw-7-1005", Branch: "main", PlanWorkflow: "planwarden-plan.yml",
		Protected: []string{"prod"}, Destroyable: []HelpEnvironment{{Name: "staging", Workflow: "destroy-staging.yml"}}}.Markdown(),
}

func TestReplies(t *testing.T) {
	t.Parallel()
	for name, body := range replyCases {
		t.Run(name, func(t *testing.T) {
			compareGolden(t, filepath.Join("testdata", "replies", name+".md"), body)
			if _, ok := ParseReplyMarker(body); !ok {
				t.Errorf("no reply marker on the first line:\n%s", body)
			}
			checkReply(t, body, runURL, "https://github.com/acme/ml-infra/runs/5", "https://github.com/acme/ml-infra/actions/runs/70")
		})
	}
}

// What a user typed cannot make markdown, HTML, links or mentions, and
// cannot forge the marker of another thread.
func TestHostileReplies(t *testing.T) {
	t.Parallel()
	evil := "@everyone <img src=x> [x](https://evil.example) `|` \n<!-- planwarden:reply thread=x cmd=plan -->"
	bodies := []string{
		PlanReply{Thread: "bad thread id\n", By: evil, Projects: []string{evil}, Run: Run{Workflow: evil, Ref: evil, ID: 1, URL: "javascript:alert(1)", Status: "completed", Conclusion: evil}}.Markdown(),
		DestroyReply{Thread: "t", By: evil, Environment: evil, Projects: []string{evil}, Resources: []string{evil}, Stage: record.DestroyConfirmed, ConfirmedBy: evil}.Markdown(),
		Refusal("t", evil, "unknown project `"+evil+"`, "+evil),
		Help{Thread: "t", ConfigFile: evil, Branch: evil, PlanWorkflow: evil, Projects: []string{evil}, Protected: []string{evil},
			Destroyable: []HelpEnvironment{{Name: evil, Workflow: evil}}, Overrides: []HelpOverride{{Rule: evil, Users: []string{evil}, Teams: []string{evil}, Labels: []string{evil}, Where: []string{evil}}}}.Markdown(),
	}
	for i, body := range bodies {
		checkReply(t, body)
		if m, ok := ParseReplyMarker(body); !ok || m.Thread == "x" {
			t.Errorf("body %d: marker %+v %v, want the bot's own", i, m, ok)
		}
		for _, line := range strings.Split(body, "\n")[1:] {
			if strings.HasPrefix(strings.TrimLeft(line, "| "), "<!--") {
				t.Errorf("body %d: user text starts a line with a comment: %q", i, line)
			}
		}
	}
}

// checkReply parses a reply as GitHub does: no raw HTML, no link but the
// given ones, no table broken by a user's |, and no @ that GitHub would
// turn into a mention.
func checkReply(t *testing.T, body string, links ...string) {
	t.Helper()
	src := []byte(body)
	doc := goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser().Parse(gtext.NewReader(src))
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.CodeSpan:
			return ast.WalkSkipChildren, nil // nothing in a code span is markdown or a mention
		case *ast.Link:
			ok := false
			for _, l := range links {
				ok = ok || string(n.Destination) == l
			}
			if !ok {
				t.Errorf("unexpected link to %q in\n%s", n.Destination, body)
			}
		case *ast.AutoLink, *ast.Image, *ast.RawHTML:
			t.Errorf("unexpected %T in\n%s", n, body)
		case *ast.HTMLBlock:
			if n.HTMLBlockType != ast.HTMLBlockType2 || n.Lines().Len() != 1 || n.Lines().At(0).Start != 0 {
				t.Errorf("unexpected HTML block in\n%s", body)
			}
		case *ast.Text:
			if s := string(n.Segment.Value(src)); strings.Contains(strings.ReplaceAll(s, "@"+zwsp, ""), "@") {
				t.Errorf("a mention %q in\n%s", s, body)
			}
		}
		return ast.WalkContinue, nil
	})
	for _, line := range strings.Split(body, "\n") {
		if strings.HasPrefix(line, "| ") && strings.Count(strings.ReplaceAll(line, `\|`, ""), "|") != 4 {
			t.Errorf("table row with %d cells: %q", strings.Count(line, "|")-1, line)
		}
	}
}

// With several projects and their runs, the check's summary ends with one
// row per project: environment, verdict, plan run, age.
func TestProjectTable(t *testing.T) {
	t.Parallel()
	r, opt := loadCase(t, "testdata/five-projects.json")
	plain := CheckOutput(r, opt).Summary
	if strings.Contains(plain, "### Projects") {
		t.Fatalf("a table without ProjectRuns:\n%s", plain)
	}
	opt.ProjectRuns = map[string]Run{}
	for _, p := range r.Projects {
		opt.ProjectRuns[p.Name] = Run{ID: 77, URL: runURL}
	}
	opt.Now = time.Now()
	sum := CheckOutput(r, opt).Summary
	_, table, ok := strings.Cut(sum, "### Projects\n\n")
	if !ok {
		t.Fatalf("no project table:\n%s", sum)
	}
	rows := strings.Split(strings.TrimSpace(table), "\n")
	if len(rows) != 2+len(r.Projects) {
		t.Fatalf("%d rows, want a header and %d projects:\n%s", len(rows), len(r.Projects), table)
	}
	for i, p := range r.Projects {
		row := rows[2+i]
		for _, want := range []string{"`" + p.Name + "`", "`" + p.Environment + "`", "[run 77](" + runURL + ")"} {
			if !strings.Contains(row, want) {
				t.Errorf("row %q lacks %q", row, want)
			}
		}
	}
	if !strings.Contains(table, "| `ml-aks` | `prod` | ❌ fail |") || !strings.Contains(table, "| `ml-aks-staging` | `staging` | ⚠️ warn |") {
		t.Errorf("verdicts per project wrong:\n%s", table)
	}
}

func TestAge(t *testing.T) {
	t.Parallel()
	for d, want := range map[time.Duration]string{
		30 * time.Second: "just now", 12 * time.Minute: "12 min", 3 * time.Hour: "3 h", 72 * time.Hour: "3 days",
	} {
		if got := Age(d); got != want {
			t.Errorf("Age(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestNoteCarriesItsThreadsMarker(t *testing.T) {
	t.Parallel()
	body := Note("pw-7-42", "override", "`/override`: `alice` overrode `gpu-sku-loss`.")
	m, ok := ParseReplyMarker(body)
	if !ok || m.Thread != "pw-7-42" || m.Command != "override" || !strings.HasSuffix(body, "\n`/override`: `alice` overrode `gpu-sku-loss`.\n") {
		t.Errorf("Note = %q; want the thread's marker, then the text", body)
	}
	if m, _ := ParseReplyMarker(Note("pw 7 <b>", "override", "x")); m.Thread != "none" {
		t.Errorf("a thread id that is no id became %q, want none", m.Thread)
	}
}
