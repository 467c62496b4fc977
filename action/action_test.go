// Package action tests the GitHub Action (action.yml): its one step's
// script, action/run.sh, run as the runner would, against a stand-in GitHub.
package action

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/planwarden/planwarden/app/githubtest"
	"github.com/planwarden/planwarden/comment"
)

var (
	buildOnce sync.Once
	buildDir  string
	builtBin  string
	buildErr  error
)

// TestMain removes the binary build made.
func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// build compiles planwarden once per test binary for the script to use
// (PLANWARDEN_BIN); the tests only run it.
func build(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		if buildDir, buildErr = os.MkdirTemp("", "planwarden-action-"); buildErr != nil {
			return
		}
		bin := filepath.Join(buildDir, "planwarden")
		cmd := exec.Command("go", "build", "-o", bin, "./cmd/planwarden")
		cmd.Dir = ".."
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		builtBin = bin
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return builtBin
}

type run struct {
	code            int
	output, summary string
	stdout          string
}

// runAction runs action/run.sh with the inputs as the runner passes them.
func runAction(t *testing.T, bin string, gh *githubtest.Server, inputs map[string]string) run {
	t.Helper()
	dir := t.TempDir()
	summary, output := filepath.Join(dir, "summary.md"), filepath.Join(dir, "output")
	cmd := exec.Command("bash", "run.sh")
	cmd.Dir = "."
	cmd.Env = append(os.Environ(),
		"PLANWARDEN_BIN="+bin, "PLANWARDEN_ACTION_PATH="+filepath.Join("..", ""),
		"RUNNER_TEMP="+dir, "GITHUB_STEP_SUMMARY="+summary, "GITHUB_OUTPUT="+output,
		"GITHUB_REPOSITORY=acme/infra", "GITHUB_API_URL="+gh.APIURL, "GITHUB_TOKEN=ghs_action_token",
		"PLANWARDEN_COMMENT_AUTHOR="+githubtest.BotLogin)
	for k, v := range inputs {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	out, err := cmd.CombinedOutput()
	r := run{stdout: string(out)}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	s, _ := os.ReadFile(summary)
	o, _ := os.ReadFile(output)
	r.summary, r.output = string(s), string(o)
	return r
}

func TestActionReviewsCommentsAndFails(t *testing.T) {
	t.Parallel()
	bin := build(t)
	gh := githubtest.New(t)
	gh.AddPR(githubtest.PR{Owner: "acme", Repo: "infra", Number: 12, HeadSHA: "abc1234"})
	typo, _ := filepath.Abs("../examples/plans/aks-gpu-typo.json")
	inputs := map[string]string{"INPUT_PLANS": typo, "INPUT_PROJECTS": "aks-gpu", "INPUT_ENVIRONMENT": "prod", "INPUT_COMMENT": "true", "PR_NUMBER": "12"}

	r := runAction(t, bin, gh, inputs)
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 on the fail verdict:\n%s", r.code, r.stdout)
	}
	if !strings.Contains(r.output, "verdict=fail\n") || !strings.Contains(r.output, "report=") {
		t.Errorf("step outputs = %q", r.output)
	}
	if !strings.Contains(r.summary, "gpu-sku-loss") || !strings.Contains(r.summary, "Standard\\_D16s\\_v5") {
		t.Errorf("job summary lacks the review:\n%s", r.summary)
	}
	// A second run (a new push) edits the same comment.
	if r := runAction(t, bin, gh, inputs); r.code != 1 {
		t.Fatalf("second run: exit %d\n%s", r.code, r.stdout)
	}
	comments := gh.Comments("acme", "infra", 12)
	if len(comments) != 1 {
		t.Fatalf("%d comments after two runs, want 1", len(comments))
	}
	if _, ok := comment.ParseMarker(comments[0].Body); !ok || !strings.Contains(comments[0].Body, "gpu-sku-loss") {
		t.Errorf("comment = %.200q", comments[0].Body)
	}

	inputs["INPUT_FAIL_ON_VERDICT"] = "false"
	if r := runAction(t, bin, gh, inputs); r.code != 0 || !strings.Contains(r.stdout, "planwarden verdict: fail") {
		t.Errorf("fail-on-verdict false: exit %d\n%s", r.code, r.stdout)
	}
}

func TestActionPassesAndRefusesBadInput(t *testing.T) {
	t.Parallel()
	bin := build(t)
	gh := githubtest.New(t)
	bucket, _ := filepath.Abs("../examples/plans/bucket-lifecycle.json")
	marker := filepath.Join(t.TempDir(), "pwned")

	r := runAction(t, bin, gh, map[string]string{"INPUT_PLANS": bucket, "INPUT_COMMENT": "false"})
	if r.code != 0 && r.code != 1 {
		t.Fatalf("exit %d:\n%s", r.code, r.stdout)
	}
	if len(gh.Comments("acme", "infra", 12)) != 0 || gh.CallCount("POST", "/comments") != 0 {
		t.Errorf("comment false still posted")
	}

	r = runAction(t, bin, gh, map[string]string{"INPUT_PLANS": "  \n "})
	if r.code != 2 || !strings.Contains(r.stdout, "input plans is empty") {
		t.Errorf("empty plans: exit %d\n%s", r.code, r.stdout)
	}
	// An input is data, never shell.
	r = runAction(t, bin, gh, map[string]string{"INPUT_PLANS": "$(touch " + marker + ").json", "INPUT_PROJECTS": "`touch " + marker + "`"})
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("an input ran as a shell command")
	}
	if r.code != 2 || !strings.Contains(r.stdout, "review failed") {
		t.Errorf("missing plan: exit %d\n%s", r.code, r.stdout)
	}
	r = runAction(t, bin, gh, map[string]string{"PLANWARDEN_BIN": "", "INPUT_VERSION": "latest", "INPUT_PLANS": bucket})
	if r.code != 2 || !strings.Contains(r.stdout, "version must look like v1.2.3") {
		t.Errorf("bad version: exit %d\n%s", r.code, r.stdout)
	}
}

func TestActionVerifyModeComparesWithTheReviewedReport(t *testing.T) {
	t.Parallel()
	bin := build(t)
	gh := githubtest.New(t)
	scaleOut, _ := filepath.Abs("../examples/plans/a100-scale-out.json")
	other, _ := filepath.Abs("../examples/plans/aks-gpu-typo.json")
	// The review of the PR: its JSON report is the step's output.
	r := runAction(t, bin, gh, map[string]string{"INPUT_PLANS": scaleOut, "INPUT_PROJECTS": "gpu", "INPUT_FAIL_ON_VERDICT": "false"})
	_, report, ok := strings.Cut(r.output, "report=")
	if r.code != 0 || !ok {
		t.Fatalf("review: exit %d, outputs %q\n%s", r.code, r.output, r.stdout)
	}
	report = strings.TrimSpace(strings.SplitN(report, "\n", 2)[0])
	tests := map[string]struct {
		plan string
		want int
		says string
	}{
		"the reviewed plan": {scaleOut, 0, "the plan is what was reviewed"},
		"another plan":      {other, 1, "the plan is not what was reviewed"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			v := runAction(t, bin, gh, map[string]string{"INPUT_MODE": "verify", "INPUT_REVIEWED": report, "INPUT_PLANS": tc.plan, "INPUT_PROJECTS": "gpu"})
			if v.code != tc.want || !strings.Contains(v.summary, tc.says) {
				t.Errorf("verify: exit %d (want %d), summary:\n%s\n%s", v.code, tc.want, v.summary, v.stdout)
			}
		})
	}
	if v := runAction(t, bin, gh, map[string]string{"INPUT_MODE": "apply", "INPUT_PLANS": scaleOut}); v.code != 2 || !strings.Contains(v.stdout, "mode must be review or verify") {
		t.Errorf("mode apply: exit %d\n%s", v.code, v.stdout)
	}
}
