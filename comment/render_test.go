package comment

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/infra"
	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/planparse/plantest"
	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/review/reviewtest"
	"github.com/planwarden/planwarden/rules"
)

func f64(f float64) *float64 { return &f }

func firstLine(body string) string {
	l, _, _ := strings.Cut(body, "\n")
	return l
}

func TestHeadline(t *testing.T) {
	t.Parallel()
	block := rules.Finding{Rule: "gpu-sku-loss", Severity: rules.SeverityBlock, Address: "a.b", Message: "m"}
	warn := rules.Finding{Rule: "cost-increase", Severity: rules.SeverityWarn, Address: "a.b", Message: "m"}
	over := block
	over.Override = &rules.Override{Rule: "gpu-sku-loss", By: "alice", At: t0}
	one := review.Summary{Update: 1}
	tests := map[string]struct {
		verdict  rules.Verdict
		findings []rules.Finding
		summary  review.Summary
		want     string
	}{
		"fail":       {rules.VerdictFail, []rules.Finding{block, block, warn}, one, "## 🛑 Not ready to merge: 2 blocking findings to fix or override"},
		"fail one":   {rules.VerdictFail, []rules.Finding{block}, one, "## 🛑 Not ready to merge: 1 blocking finding to fix or override"},
		"warn":       {rules.VerdictWarn, []rules.Finding{warn}, one, "## ⚠️ OK to merge after a look: 1 warning"},
		"pass":       {rules.VerdictPass, nil, one, "## ✅ Nothing to worry about: no findings"},
		"overridden": {rules.VerdictPass, []rules.Finding{over}, one, "## ✅ Nothing left to worry about: 1 finding was overridden"},
		"no changes": {rules.VerdictPass, nil, review.Summary{NoOp: 3}, "## ✅ No changes: nothing to review"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			r := &review.Report{Verdict: tc.verdict, Projects: []*review.Project{{Name: "p", Summary: tc.summary, Findings: tc.findings, Complete: true}}}
			if got := firstLine(Render(r, Options{})); got != tc.want {
				t.Errorf("headline %q, want %q", got, tc.want)
			}
		})
	}
}

func TestCountsLine(t *testing.T) {
	t.Parallel()
	r := &review.Report{
		Totals: review.Totals{HourlyBefore: f64(8.34), HourlyAfter: f64(2.53), HourlyDelta: f64(-5.81), UnpricedCount: 1},
		Projects: []*review.Project{
			{Name: "a", Complete: true, Summary: review.Summary{Create: 2, Replace: 1, Move: 1}, Changes: []*review.Change{reviewtest.Change(review.ChangeRow{Address: "x.y", Action: "create", HourlyAfter: f64(1)})},
				Cost: review.Cost{Unpriced: []review.Unpriced{{Address: "x.z", SKU: "p9", Reason: "not in the catalog"}, {Address: "x.z", SKU: "p9", Reason: "not in the catalog"}}}},
			{Name: "b", Complete: true, Summary: review.Summary{Delete: 1, Import: 1, Forget: 1, Read: 3}},
		},
	}
	body := Render(r, Options{})
	want := "**Plan:** 2 to create, 1 to replace, 1 to delete, 1 to move, 1 to import, 1 to forget (removed from state, kept in the cloud), 3 to read (data sources) across 2 projects · **Cost:** -\\$5.81 per hour (-\\$4,241.30 per month), 1 item not priced"
	if !strings.Contains(body, "\n"+want+"\n") {
		t.Errorf("counts line missing; want %q in\n%s", want, body)
	}
}

func TestFindings(t *testing.T) {
	t.Parallel()
	r := &review.Report{Verdict: rules.VerdictFail, Projects: []*review.Project{{
		Name: "ml", Complete: true, Summary: review.Summary{Update: 1},
		Findings: []rules.Finding{
			{Rule: "unpriced-sku", Severity: rules.SeverityWarn, Address: "w.one", Message: "Warn one."},
			{Rule: "note", Severity: rules.SeverityInfo, Address: "i.one", Message: "Info one."},
			{Rule: "gpu-sku-loss", Severity: rules.SeverityBlock, Address: "b.one", Message: "Block one.", Remedy: "Set vm_size back to Standard_NC6s_v3."},
			{Rule: "required-tags", Severity: rules.SeverityBlock, Address: "b.two", Message: "Block two."},
			{Rule: "iam-admin", Severity: rules.SeverityBlock, Address: "o.one", Message: "Overridden one.",
				Override: &rules.Override{Rule: "iam-admin", By: "@alice", At: t0, Reason: "break-glass <b>now</b>"}},
		},
	}}}
	body := Render(r, Options{})
	order := []string{
		"### 🛑 Must be fixed or overridden before merging",
		"- `gpu-sku-loss` on `b.one`: Block one.",
		"  - **What to do:** Set vm\\_size back to Standard\\_NC6s\\_v3.",
		"- `required-tags` on `b.two`: Block two.",
		"  - **What to do:** fix it in this pull request, or have someone allowed to override `required-tags` do so by commenting `/override required-tags`.",
		"### ✔️ Overridden",
		"  - **Overridden** by `@alice` on 2026-12-01 17:42 UTC: break-glass \\<b\\>now\\</b\\>",
		"### ⚠️ Worth a look",
		"- `unpriced-sku` on `w.one`: Warn one.",
		"### ℹ️ For information",
		"- `note` on `i.one`: Info one.",
	}
	at := 0
	for _, want := range order {
		i := strings.Index(body[at:], want+"\n")
		if i < 0 {
			t.Fatalf("missing, or out of order: %q\nbody:\n%s", want, body)
		}
		at += i + len(want)
	}
	checkStructure(t, body, "")
}

// gpuPool is infra's view of an AKS pool going from V100s to a CPU SKU.
func gpuPool(addr string) *review.Change {
	v100 := infra.SKU{Name: "Standard_NC6s_v3", GPUCount: 1, GPUModel: "NVIDIA Tesla V100 16GB", Accelerator: infra.AcceleratorNVIDIA, Known: true}
	d16 := infra.SKU{Name: "Standard_D16s_v5", Known: true}
	scale := infra.Scale{Min: 1, Expected: 2, Max: 4, Autoscaled: true}
	res := &infra.Resource{Address: addr, Type: "azurerm_kubernetes_cluster_node_pool", Kind: infra.KindNodePool,
		Before: &infra.Side{SKU: v100.Name, Groups: []infra.Group{{SKU: v100, Scale: scale}}},
		After:  &infra.Side{SKU: d16.Name, Groups: []infra.Group{{SKU: d16, Scale: scale}}},
		Cost:   infra.Cost{HourlyBefore: f64(7.65), HourlyAfter: f64(1.84)}}
	return &review.Change{Source: &planparse.Change{Address: addr, Type: res.Type, Action: planparse.ActionReplace,
		ReplaceOrder: planparse.DeleteThenCreate, ReplacePaths: []string{"vm_size"}}, Resource: res}
}

func TestGPURow(t *testing.T) {
	t.Parallel()
	r := &review.Report{Projects: []*review.Project{{Name: "ml", Complete: true, Summary: review.Summary{Replace: 1},
		Changes: []*review.Change{gpuPool("azurerm_kubernetes_cluster_node_pool.gpu")}}}}
	body := Render(r, Options{})
	want := "| `azurerm_kubernetes_cluster_node_pool.gpu` | `Standard_NC6s_v3` → `Standard_D16s_v5` | NVIDIA Tesla V100 16GB × 1 → none | 1 / 2 / 4 | 2 → 0 (at max 4 → 0) | \\$7.65 → \\$1.84 |"
	if !strings.Contains(body, want+"\n") {
		t.Errorf("GPU row missing: want %q in\n%s", want, body)
	}
}

// bigReport is n plain changes with parsed diffs, plus gpus GPU pools and
// a blocking finding on each pool.
func bigReport(t testing.TB, n, gpus int) *review.Report {
	t.Helper()
	rcs := make([]string, 0, gpus+n)
	for i := 0; i < gpus; i++ {
		rcs = append(rcs, fmt.Sprintf(`{"address":"azurerm_kubernetes_cluster_node_pool.gpu%d","mode":"managed","type":"azurerm_kubernetes_cluster_node_pool","name":"gpu%d","provider_name":"registry.terraform.io/hashicorp/azurerm","change":{"actions":["delete","create"],"before":{"vm_size":"Standard_NC6s_v3"},"after":{"vm_size":"Standard_D16s_v5"},"replace_paths":[["vm_size"]]}}`, i, i))
	}
	for i := 0; i < n; i++ {
		rcs = append(rcs, fmt.Sprintf(`{"address":"terraform_data.r[%d]","mode":"managed","type":"terraform_data","name":"r","provider_name":"terraform.io/builtin/terraform","change":{"actions":["update"],"before":{"input":{"step":%d,"note":"before"}},"after":{"input":{"step":%d,"note":"after"}}}}`, i, i, i+1))
	}
	plan, err := planparse.Parse("big.json", []byte(`{"format_version":"1.2","resource_changes":[`+strings.Join(rcs, ",")+`]}`))
	if err != nil {
		t.Fatal(err)
	}
	p := &review.Project{Name: "big", Environment: "prod", Complete: true, Plan: plan}
	for i, c := range plan.Changes {
		if i < gpus {
			rc := gpuPool(c.Address)
			rc.Source = c
			p.Changes = append(p.Changes, rc)
			p.Summary.Replace++
			p.Findings = append(p.Findings, rules.Finding{Rule: "gpu-sku-loss", Severity: rules.SeverityBlock, Address: c.Address,
				Message: "The pool loses its GPUs.", Remedy: "Set vm_size back to a GPU SKU."})
			continue
		}
		p.Changes = append(p.Changes, &review.Change{Source: c})
		p.Summary.Update++
	}
	return &review.Report{Verdict: rules.VerdictFail, Projects: []*review.Project{p}}
}

var rowRE = regexp.MustCompile("(?m)^\\| (update|\\*\\*replace\\*\\*) \\| `")

func TestShrinkOrder(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		changes                int
		wantDiffsCut, wantRows bool
	}{
		"fits whole":        {changes: 20, wantDiffsCut: false, wantRows: false},
		"diffs cut first":   {changes: 400, wantDiffsCut: true, wantRows: false},
		"then table rows":   {changes: 20000, wantDiffsCut: true, wantRows: true},
		"many more changes": {changes: 40000, wantDiffsCut: true, wantRows: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			const gpus = 12
			r := bigReport(t, tc.changes, gpus)
			opt := Options{Marker: true, HeadSHA: "abcdef1", PlanTime: t0, DetailsURL: "https://github.com/acme/ml/runs/1"}
			body := Render(r, opt)
			checkBody(t, body, opt)
			// Findings and GPU changes stay whole.
			if n := strings.Count(body, "- `gpu-sku-loss` on `azurerm_kubernetes_cluster_node_pool.gpu"); n != gpus {
				t.Errorf("%d of %d findings shown", n, gpus)
			}
			gpuRows := regexp.MustCompile("(?m)^\\| `azurerm_kubernetes_cluster_node_pool\\.gpu[0-9]+` \\| `Standard_NC6s_v3`").FindAllString(body, -1)
			if len(gpuRows) != gpus {
				t.Errorf("%d of %d GPU rows shown", len(gpuRows), gpus)
			}
			details := strings.Count(body, "<details>")
			rows := len(rowRE.FindAllString(body, -1))
			shortened := strings.Contains(body, "✂️ **Shortened to fit GitHub's size limit.**")
			if shortened != (tc.wantDiffsCut || tc.wantRows) {
				t.Errorf("shortened line present = %v", shortened)
			}
			if tc.wantDiffsCut {
				if details >= tc.changes+gpus || !strings.Contains(body, "more resources") && !strings.Contains(body, "the attribute diffs of") {
					t.Errorf("diffs not cut: %d details", details)
				}
				if !strings.Contains(body, "See [the planwarden check run](https://github.com/acme/ml/runs/1) for more, or run `planwarden review --format json` on the plan for everything.") {
					t.Errorf("left-out line does not point to the check run")
				}
			} else if details != tc.changes+gpus {
				t.Errorf("%d diffs shown, want all %d", details, tc.changes+gpus)
			}
			if tc.wantRows {
				if details != 0 {
					t.Errorf("%d diffs shown though table rows were cut: diffs must go first", details)
				}
				if rows >= tc.changes+gpus || !strings.Contains(body, "rows of the change tables") {
					t.Errorf("table rows not cut: %d rows", rows)
				}
			} else if rows != tc.changes+gpus {
				t.Errorf("%d table rows, want %d", rows, tc.changes+gpus)
			}
			// Diffs for resources with findings come first.
			if tc.wantDiffsCut && !tc.wantRows && !strings.Contains(body, "<details><summary><code>azurerm_kubernetes_cluster_node_pool.gpu0</code>") {
				t.Errorf("diffs of resources with findings are not first")
			}
		})
	}
}

// TestLargePlan renders the 20,000-change plan of plantest through the
// real pipeline: it fits, says what it left out and keeps its structure.
func TestLargePlan(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("parses a 28 MB plan")
	}
	plan, err := planparse.Parse("large.json", plantest.Large(20000))
	if err != nil {
		t.Fatal(err)
	}
	r := review.Build([]review.Input{{Name: "fleet", Environment: "prod", Plan: plan}}, review.Options{})
	opt := Options{Marker: true, HeadSHA: "abcdef1", PlanTime: t0, DetailsURL: "https://github.com/acme/ml/runs/1"}
	body := Render(r, opt)
	checkBody(t, body, opt)
	if !strings.Contains(body, "✂️ **Shortened to fit GitHub's size limit.** Left out: ") {
		t.Errorf("no left-out line in a 20,000-change comment")
	}
	if len(body) < MaxCommentBytes/2 {
		t.Errorf("body is only %d bytes: the budget is badly used", len(body))
	}
	c := CheckOutput(r, opt)
	if len(c.Summary) > MaxCheckBytes || len(c.Text) > MaxCheckBytes {
		t.Errorf("check output too long: summary %d, text %d", len(c.Summary), len(c.Text))
	}
	if !strings.Contains(c.Text, "Shortened to fit") {
		t.Errorf("check text has no left-out line")
	}
	checkStructure(t, c.Summary, opt.DetailsURL)
	checkStructure(t, c.Text, opt.DetailsURL)
}

func TestNilAndEmpty(t *testing.T) {
	t.Parallel()
	for name, r := range map[string]*review.Report{"nil": nil, "empty": {}} {
		t.Run(name, func(t *testing.T) {
			body := Render(r, Options{})
			if firstLine(body) != "## ✅ No changes: nothing to review" {
				t.Errorf("body %q", body)
			}
			c := CheckOutput(r, Options{})
			if c.Conclusion != "success" || c.Title != "No changes: nothing to review · no changes" {
				t.Errorf("check %+v", c)
			}
		})
	}
}

func TestIncompleteAndErrored(t *testing.T) {
	t.Parallel()
	r := &review.Report{Verdict: rules.VerdictFail, Projects: []*review.Project{
		{Name: "broken", Errored: true, Summary: review.Summary{Create: 1}},
		{Name: "partial", Complete: false, Summary: review.Summary{Create: 1}},
		{Name: "fine", Complete: true},
	}}
	body := Render(r, Options{})
	for _, want := range []string{
		"> ⚠️ Planning failed part way in `broken`: the change list below is incomplete; fix the plan errors and plan again.",
		"> ℹ️ The plan of `partial` is not complete (changes were deferred or `-target` was used): another plan will follow the apply.",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("missing %q in\n%s", want, body)
		}
	}
	if strings.Contains(body, "`fine` is not complete") {
		t.Errorf("a complete plan is called incomplete")
	}
}

func TestDetailsURL(t *testing.T) {
	t.Parallel()
	tests := map[string]struct{ url, want string }{
		"https":         {"https://github.com/acme/ml/runs/1", "https://github.com/acme/ml/runs/1"},
		"javascript":    {"javascript:alert(1)", ""},
		"breaks a link": {"https://x.example/a) [b](https://evil.example", "https://x.example/a%29%20%5Bb%5D%28https://evil.example"},
		"relative":      {"/runs/1", ""},
		"too long":      {"https://x.example/" + strings.Repeat("a", 500), ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := safeURL(tc.url); got != tc.want {
				t.Errorf("safeURL(%q) = %q, want %q", tc.url, got, tc.want)
			}
		})
	}
}

func TestMoney(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		f           *float64
		money, diff string
	}{
		"unknown":   {nil, "unknown", "unknown"},
		"zero":      {f64(0), `\$0.00`, `\$0.00`},
		"rounding":  {f64(0.004), `\$0.00`, `\$0.00`},
		"thousands": {f64(1234567.891), `\$1,234,567.89`, `+\$1,234,567.89`},
		"negative":  {f64(-5.81), `-\$5.81`, `-\$5.81`},
		"hundreds":  {f64(999.999), `\$1,000.00`, `+\$1,000.00`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := money(tc.f); got != tc.money {
				t.Errorf("money = %q, want %q", got, tc.money)
			}
			if got := delta(tc.f); got != tc.diff {
				t.Errorf("delta = %q, want %q", got, tc.diff)
			}
		})
	}
}

func TestGroupInt(t *testing.T) {
	t.Parallel()
	tests := map[int]string{0: "0", 7: "7", 999: "999", 1000: "1,000", 20000: "20,000", 1234567: "1,234,567", -4500: "-4,500"}
	for n, want := range tests {
		if got := groupInt(n); got != want {
			t.Errorf("groupInt(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestManyProjects(t *testing.T) {
	t.Parallel()
	r := &review.Report{Verdict: rules.VerdictFail}
	for i := 0; i < 3000; i++ {
		r.Projects = append(r.Projects, &review.Project{Name: fmt.Sprintf("project-%d", i), Environment: "prod", Errored: i%2 == 0, Complete: i%2 == 1,
			Summary:  review.Summary{Create: 1},
			Changes:  []*review.Change{reviewtest.Change(review.ChangeRow{Address: "aws_s3_bucket.b", Type: "aws_s3_bucket", Action: "create"})},
			Cost:     review.Cost{HourlyBefore: f64(0), HourlyAfter: f64(1), HourlyDelta: f64(1)},
			Findings: []rules.Finding{{Rule: "stateful-delete", Severity: rules.SeverityBlock, Address: "aws_s3_bucket.b", Message: "m"}}})
	}
	opt := Options{Marker: true, DetailsURL: "https://github.com/acme/ml/runs/1"}
	body := Render(r, opt)
	checkBody(t, body, opt)
	for _, want := range []string{"more findings", "the change lists of", "… and more projects with incomplete plans", "more projects"} {
		if !strings.Contains(body, want) {
			t.Errorf("body lacks %q", want)
		}
	}
	if n := strings.Count(body, "> ⚠️ Planning failed part way"); n != maxNotes {
		t.Errorf("%d errored-plan notes, want %d", n, maxNotes)
	}
}

func TestEndpoints(t *testing.T) {
	t.Parallel()
	ep := func(c review.ChangeRow) *review.Report {
		c.Type, c.Action = "aws_sagemaker_endpoint", "replace"
		return &review.Report{Projects: []*review.Project{{Name: "serving", Environment: "prod", Complete: true,
			Summary: review.Summary{Replace: 1}, Changes: []*review.Change{reviewtest.Change(c)}}}}
	}
	tests := map[string]struct {
		r    *review.Report
		want string
	}{
		"forced, deleted first": {ep(review.ChangeRow{Address: "aws_sagemaker_endpoint.a", ReplaceOrder: "delete-then-create", ReplacePaths: []string{"name"}}),
			"- `aws_sagemaker_endpoint.a` (`prod`): replaced because `name` cannot be changed in place. The old endpoint is deleted first: requests fail until the new one is in service. Its name changes, so callers that use the old name break.\n"},
		"created first": {ep(review.ChangeRow{Address: "aws_sagemaker_endpoint.b", ReplaceOrder: "create-then-delete", ReplacePaths: []string{"endpoint_config_name"}}),
			"- `aws_sagemaker_endpoint.b` (`prod`): replaced because `endpoint_config_name` cannot be changed in place. The new endpoint is created before the old one is deleted; both bill while it runs.\n"},
		"tainted": {ep(review.ChangeRow{Address: "aws_sagemaker_endpoint.c", Reason: "the object is tainted"}),
			"- `aws_sagemaker_endpoint.c` (`prod`): replaced because the object is tainted. The old endpoint is deleted first: requests fail until the new one is in service.\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			body := Render(tc.r, Options{})
			if !strings.Contains(body, "### Serving endpoints to be replaced\n") || !strings.Contains(body, tc.want) {
				t.Errorf("want %q in\n%s", tc.want, body)
			}
		})
	}
	// An update of an endpoint is not a replacement.
	r := ep(review.ChangeRow{Address: "aws_sagemaker_endpoint.d"})
	r.Projects[0].Changes[0].Source.Action = planparse.ActionUpdate
	if body := Render(r, Options{}); strings.Contains(body, "Serving endpoints") {
		t.Errorf("an in-place update is listed as a replacement")
	}
}

// The review's notes (what of the artifacts was not trusted) are shown
// under the verdict, escaped: their words come from the artifact.
func TestReviewNotes(t *testing.T) {
	t.Parallel()
	r := &review.Report{Verdict: rules.VerdictPass, Projects: []*review.Project{{Name: "ml", Complete: true}},
		Notes: []string{`The metadata of artifact "planwarden-ml" names environment "staging" for project "ml"; the base branch's config says "prod", which applies. @admin <b>`}}
	body := Render(r, Options{})
	want := `> ℹ️ The metadata of artifact "planwarden-ml" names environment "staging" for project "ml"; the base branch's config says "prod", which applies.`
	if !strings.Contains(body, want) {
		t.Errorf("body lacks the note %q:\n%s", want, body)
	}
	if strings.Contains(body, "<b>") || strings.Contains(body, " @admin") {
		t.Errorf("the note is not escaped:\n%s", body)
	}
}
