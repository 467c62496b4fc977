package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/app/githubtest"
	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/review/reportjson"
	"github.com/planwarden/planwarden/review/reviewtest"
)

// gpuPool is an AKS GPU pool that passes the default rules (tagged,
// tainted), count nodes of size.
func gpuPool(count int, size string) map[string]any {
	return map[string]any{"name": "gpu", "vm_size": size, "node_count": count, "mode": "User",
		"node_taints": []any{"nvidia.com/gpu=present:NoSchedule"}, "tags": map[string]any{"cost-center": "ml"}}
}

func scaleGPU(from, to int, size string) reviewtest.PlanChange {
	return reviewtest.PlanChange{Address: "azurerm_kubernetes_cluster_node_pool.gpu",
		Before: gpuPool(from, "Standard_NC24ads_A100_v4"), After: gpuPool(to, size)}
}

func newBucket(name string) reviewtest.PlanChange {
	return reviewtest.PlanChange{Address: "aws_s3_bucket." + name, Actions: []string{"create"},
		After: map[string]any{"bucket": name, "force_destroy": false}}
}

func noop(name string) reviewtest.PlanChange {
	v := map[string]any{"bucket": name, "force_destroy": false}
	return reviewtest.PlanChange{Address: "aws_s3_bucket." + name, Actions: []string{"no-op"}, Before: v, After: v}
}

func bucketARN(known bool) reviewtest.PlanChange {
	c := newBucket("logs")
	if known {
		c.After["arn"] = "arn:aws:s3:::logs"
	} else {
		c.AfterUnknown = map[string]any{"arn": true}
	}
	return c
}

const a100 = "Standard_NC24ads_A100_v4"

// planFile writes the changes as a plan file named gpu.json (project gpu).
func planFile(t *testing.T, changes ...reviewtest.PlanChange) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "gpu.json")
	if err := os.WriteFile(path, reviewtest.Plan(changes), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// reviewedReport is what `planwarden review --format json` wrote of the plan.
func reviewedReport(t *testing.T, plan string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "report.json")
	code, out, stderr := runCLI(t, "", "review", "--format", "json", "--digests", plan)
	if code == exitUsage {
		t.Fatalf("review: %s", stderr)
	}
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestVerifyComparesThePlanWithTheReviewedReport(t *testing.T) {
	t.Setenv("GITHUB_STEP_SUMMARY", "")
	reviewed := []reviewtest.PlanChange{scaleGPU(2, 6, a100), newBucket("logs")}
	tests := map[string]struct {
		planned []reviewtest.PlanChange
		flags   []string
		want    int
		says    []string
	}{
		"identical": {reviewed, nil, exitOK,
			[]string{"the plan is what was reviewed", "every change is the reviewed one"}},
		"reordered but equal": {[]reviewtest.PlanChange{newBucket("logs"), scaleGPU(2, 6, a100)}, nil, exitOK,
			[]string{"every change is the reviewed one"}},
		"one extra change": {append(append([]reviewtest.PlanChange{}, reviewed...), newBucket("extra")), nil, exitFail,
			[]string{"the plan is not what was reviewed", "aws_s3_bucket.extra", "not reviewed: the plan has it"}},
		"one change left out": {reviewed[:1], nil, exitFail,
			[]string{"aws_s3_bucket.logs", "not planned: the review had it"}},
		"one changed SKU": {[]reviewtest.PlanChange{scaleGPU(2, 6, "Standard_ND96asr_v4"), newBucket("logs")}, nil, exitFail,
			[]string{"azurerm_kubernetes_cluster_node_pool.gpu", "SKU", "Standard_ND96asr_v4"}},
		"one changed count": {[]reviewtest.PlanChange{scaleGPU(2, 8, a100), newBucket("logs")}, nil, exitFail,
			[]string{"instance count", "2 → 8"}},
		"a new no-op, strict": {append(append([]reviewtest.PlanChange{}, reviewed...), noop("old")), nil, exitFail,
			[]string{"aws_s3_bucket.old", "not reviewed"}},
		"a new no-op, allowed": {append(append([]reviewtest.PlanChange{}, reviewed...), noop("old")), []string{"--allow-new-noop"}, exitOK,
			[]string{"let pass by a tolerance flag", "new no-op"}},
		"a changed SKU is no no-op": {[]reviewtest.PlanChange{scaleGPU(2, 6, "Standard_ND96asr_v4"), newBucket("logs")}, []string{"--allow-new-noop", "--allow-known-after-apply"}, exitFail,
			[]string{"SKU"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			report := reviewedReport(t, planFile(t, reviewed...))
			args := append([]string{"verify", "--reviewed", report}, tc.flags...)
			code, out, stderr := runCLI(t, "", append(args, planFile(t, tc.planned...))...)
			if code != tc.want {
				t.Fatalf("exit %d, want %d\n%s%s", code, tc.want, out, stderr)
			}
			for _, s := range tc.says {
				if !strings.Contains(out, s) {
					t.Errorf("the output does not say %q:\n%s", s, out)
				}
			}
		})
	}
}

func TestVerifyKnownAfterApplyIsATolerance(t *testing.T) {
	t.Setenv("GITHUB_STEP_SUMMARY", "")
	report := reviewedReport(t, planFile(t, bucketARN(false)))
	tests := map[string]struct {
		planned reviewtest.PlanChange
		flags   []string
		want    int
	}{
		"the unknown became known, strict":  {bucketARN(true), nil, exitFail},
		"the unknown became known, allowed": {bucketARN(true), []string{"--allow-known-after-apply"}, exitOK},
		"still unknown":                     {bucketARN(false), nil, exitOK},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			args := append([]string{"verify", "--reviewed", report}, tc.flags...)
			if code, out, stderr := runCLI(t, "", append(args, planFile(t, tc.planned))...); code != tc.want {
				t.Errorf("exit %d, want %d\n%s%s", code, tc.want, out, stderr)
			}
		})
	}
	// Another attribute changing beside the unknown one is no tolerance's.
	other := bucketARN(true)
	other.After["force_destroy"] = true
	if code, out, _ := runCLI(t, "", "verify", "--reviewed", report, "--allow-known-after-apply", planFile(t, other)); code != exitFail || !strings.Contains(out, "attribute values") {
		t.Errorf("a changed attribute beside the known one: exit %d\n%s", code, out)
	}
}

func TestVerifyWritesTheJobSummary(t *testing.T) {
	summary := filepath.Join(t.TempDir(), "summary.md")
	t.Setenv("GITHUB_STEP_SUMMARY", summary)
	report := reviewedReport(t, planFile(t, scaleGPU(2, 6, a100)))
	if code, out, _ := runCLI(t, "", "verify", "--reviewed", report, planFile(t, scaleGPU(2, 6, "Standard_ND96asr_v4"))); code != exitFail {
		t.Fatalf("exit %d\n%s", code, out)
	}
	md, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "| change | reviewed | planned | what differs |") || !strings.Contains(string(md), "`azurerm_kubernetes_cluster_node_pool.gpu`") {
		t.Errorf("the job summary has no table of the differences:\n%s", md)
	}
}

func TestVerifyRefusesAFailedReview(t *testing.T) {
	t.Setenv("GITHUB_STEP_SUMMARY", "")
	untagged := scaleGPU(2, 6, a100)
	delete(untagged.After, "tags") // required-tags blocks
	plan := planFile(t, untagged)
	code, out, _ := runCLI(t, "", "verify", "--reviewed", reviewedReport(t, plan), plan)
	if code != exitFail || !strings.Contains(out, "the review failed") {
		t.Errorf("verify of a plan whose review failed: exit %d\n%s", code, out)
	}
}

func TestVerifyRefusesAnUnreviewedProject(t *testing.T) {
	t.Setenv("GITHUB_STEP_SUMMARY", "")
	plan := planFile(t, newBucket("logs"))
	code, out, _ := runCLI(t, "", "verify", "--reviewed", reviewedReport(t, plan), "--project", "other", plan)
	if code != exitFail || !strings.Contains(out, "not reviewed") || !strings.Contains(out, "--project") {
		t.Errorf("verify of a project the review does not have: exit %d\n%s", code, out)
	}
}

func TestVerifyBadInputIsExit2(t *testing.T) {
	t.Setenv("GITHUB_STEP_SUMMARY", "")
	dir := t.TempDir()
	plan := planFile(t, newBucket("logs"))
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	noDigest := filepath.Join(dir, "plain.json")
	p, _ := planparse.Parse("gpu.json", reviewtest.Plan([]reviewtest.PlanChange{newBucket("logs")}))
	f, _ := os.Create(noDigest)
	_ = reportjson.Write(f, review.Build([]review.Input{{Name: "gpu", Plan: p}}, review.Options{}))
	f.Close()
	good, _ := os.ReadFile(reviewedReport(t, plan))
	edited := write("edited.json", strings.Replace(string(good), `"action": "create"`, `"action": "update"`, 1))
	tests := map[string]struct {
		args []string
		says []string
	}{
		"not JSON":             {[]string{"--reviewed", write("x.json", "{nope"), plan}, []string{"x.json", "not a JSON report"}},
		"no projects":          {[]string{"--reviewed", write("e.json", "{}"), plan}, []string{"e.json", "no field projects"}},
		"made without digests": {[]string{"--reviewed", noDigest, plan}, []string{"plain.json", "change_set_digest", "planwarden review --format json --digests"}},
		"edited":               {[]string{"--reviewed", edited, plan}, []string{"edited.json", "change_set_digest", "does not match its changes"}},
		"no such report":       {[]string{"--reviewed", filepath.Join(dir, "absent.json"), plan}, []string{"absent.json"}},
		"no plan":              {[]string{"--reviewed", noDigest}, []string{"no plan file given"}},
		"bad plan":             {[]string{"--reviewed", noDigest, write("bad.json", "[")}, []string{"bad.json"}},
		"online, no repo":      {[]string{"--repo", "", "--sha", "abc1234", plan}, []string{"--repo must be OWNER/REPO"}},
		"online, no token":     {[]string{"--repo", "acme/infra", "--sha", "abc1234", "--app-id", "99", plan}, []string{"GITHUB_TOKEN"}},
		"online, no app":       {[]string{"--repo", "acme/infra", "--sha", "abc1234", "--app-id", "", plan}, []string{"App's id"}},
	}
	t.Setenv("GITHUB_TOKEN", "")
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if name == "online, no app" {
				t.Setenv("GITHUB_TOKEN", "ghs_test_token_not_a_secret")
			}
			code, _, stderr := runCLI(t, "", append([]string{"verify"}, tc.args...)...)
			if code != exitUsage {
				t.Fatalf("exit %d, want %d (%s)", code, exitUsage, stderr)
			}
			for _, s := range tc.says {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr does not say %q: %s", s, stderr)
				}
			}
		})
	}
}

// onlineEnv points verify at the fake GitHub: repository acme/infra,
// commit merge1234 made by merging PR 7 (head abc1234).
func onlineEnv(t *testing.T, gh *githubtest.Server) {
	t.Setenv("GITHUB_TOKEN", "ghs_test_token_not_a_secret")
	t.Setenv("GITHUB_API_URL", gh.APIURL)
	t.Setenv("GITHUB_REPOSITORY", "acme/infra")
	t.Setenv("GITHUB_SHA", "5eed1234")
	t.Setenv("PLANWARDEN_APP_ID", "99")
	t.Setenv("GITHUB_STEP_SUMMARY", "")
	gh.AddPR(githubtest.PR{Owner: "acme", Repo: "infra", Number: 7, HeadSHA: "abc1234", MergeCommitSHA: "5eed1234"})
}

// reviewCheck is the check run the App published for a review of plan.
func reviewCheck(t *testing.T, plan string) comment.Check {
	t.Helper()
	data, err := os.ReadFile(plan)
	if err != nil {
		t.Fatal(err)
	}
	p, err := planparse.Parse(plan, data)
	if err != nil {
		t.Fatal(err)
	}
	r := review.Build([]review.Input{{Name: "gpu", Environment: "prod", Plan: p}}, review.Options{Digests: true})
	return comment.CheckOutput(r, comment.Options{})
}

func TestVerifyOnlineReadsThePullRequestsCheckRun(t *testing.T) {
	reviewed := planFile(t, scaleGPU(2, 6, a100), newBucket("logs"))
	passed := reviewCheck(t, reviewed)
	tests := map[string]struct {
		check   *githubtest.CheckRun
		planned string
		want    int
		says    string
	}{
		"the reviewed plan": {&githubtest.CheckRun{Conclusion: passed.Conclusion, Text: passed.Text}, planFile(t, scaleGPU(2, 6, a100), newBucket("logs")), exitOK,
			"every change is the reviewed one"},
		"the reviewed plan, reordered": {&githubtest.CheckRun{Conclusion: passed.Conclusion, Text: passed.Text}, planFile(t, newBucket("logs"), scaleGPU(2, 6, a100)), exitOK,
			"every change is the reviewed one"},
		"one extra change": {&githubtest.CheckRun{Conclusion: passed.Conclusion, Text: passed.Text}, planFile(t, scaleGPU(2, 6, a100), newBucket("logs"), newBucket("extra")), exitFail,
			"not reviewed: the plan has it"},
		"one changed SKU": {&githubtest.CheckRun{Conclusion: passed.Conclusion, Text: passed.Text}, planFile(t, scaleGPU(2, 6, "Standard_ND96asr_v4"), newBucket("logs")), exitFail,
			"SKU"},
		"a failed check": {&githubtest.CheckRun{Conclusion: "failure", Text: passed.Text}, reviewed, exitFail,
			"check run concluded failure"},
		"a check still in progress": {&githubtest.CheckRun{Status: "in_progress", Text: passed.Text}, reviewed, exitFail,
			"never completed"},
		"no check": {nil, reviewed, exitFail,
			"no planwarden check run of the planwarden App"},
		"a workflow's check of the same name": {&githubtest.CheckRun{Conclusion: "success", Text: passed.Text, AppID: 15368}, reviewed, exitFail,
			"no planwarden check run of the planwarden App"},
		"a check without a record": {&githubtest.CheckRun{Conclusion: "success", Text: "older planwarden"}, reviewed, exitFail,
			"holds no record"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			gh := githubtest.New(t)
			onlineEnv(t, gh)
			if tc.check != nil {
				c := *tc.check
				c.Owner, c.Repo, c.Name, c.HeadSHA = "acme", "infra", "planwarden", "abc1234"
				gh.AddCheckRun(c)
			}
			code, out, stderr := runCLI(t, "", "verify", "--project", "gpu", tc.planned)
			if code != tc.want {
				t.Fatalf("exit %d, want %d\n%s%s", code, tc.want, out, stderr)
			}
			if !strings.Contains(out, tc.says) {
				t.Errorf("the output does not say %q:\n%s", tc.says, out)
			}
			if !strings.Contains(out, "pull request #7") {
				t.Errorf("the output does not name the pull request:\n%s", out)
			}
		})
	}
}

func TestVerifyOnlineWithoutAMergedPullRequest(t *testing.T) {
	gh := githubtest.New(t)
	onlineEnv(t, gh)
	t.Setenv("GITHUB_SHA", "d1ec7f00")
	code, out, stderr := runCLI(t, "", "verify", planFile(t, newBucket("logs")))
	if code != exitFail || !strings.Contains(out, "No merged pull request made commit") {
		t.Errorf("verify of a pushed commit: exit %d\n%s%s", code, out, stderr)
	}
	if n := gh.CallCount("GET", "/repos/acme/infra/commits/d1ec7f00/pulls"); n != 1 {
		t.Errorf("asked GitHub for the commit's pull requests %d times, want 1", n)
	}
}

// A plain JSON review leaves the digests out (they cost a decode of the
// attributes that differ); --digests puts them in; with another format it
// is refused.
func TestReviewDigestsOnlyWhenAsked(t *testing.T) {
	t.Parallel()
	plan := planFile(t, newBucket("logs"))
	tests := map[string]struct {
		args    []string
		digests bool
		code    int
	}{
		"plain JSON":         {[]string{"--format", "json"}, false, exitOK},
		"JSON with digests":  {[]string{"--format", "json", "--digests"}, true, exitOK},
		"markdown, digests?": {[]string{"--digests"}, false, exitUsage},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			code, out, stderr := runCLI(t, "", append(append([]string{"review"}, tc.args...), plan)...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d: %s", code, tc.code, stderr)
			}
			if got := strings.Contains(out, `"change_set_digest"`) && strings.Contains(out, `"diff_digest"`); got != tc.digests {
				t.Errorf("digests in the output: %v, want %v", got, tc.digests)
			}
		})
	}
}
