package comment

import (
	"fmt"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/record"
	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/rules"
)

func TestCheckConclusion(t *testing.T) {
	t.Parallel()
	tests := map[rules.Verdict]string{
		rules.VerdictPass: "success",
		rules.VerdictWarn: "neutral",
		rules.VerdictFail: "failure",
		"":                "success", // the empty report
		"maybe":           "failure", // unknown verdicts fail closed
	}
	for verdict, want := range tests {
		t.Run(string(verdict), func(t *testing.T) {
			c := CheckOutput(&review.Report{Verdict: verdict}, Options{})
			if c.Conclusion != want {
				t.Errorf("conclusion %q, want %q", c.Conclusion, want)
			}
		})
	}
}

func TestCheckTitleAndParts(t *testing.T) {
	t.Parallel()
	r := bigReport(t, 3, 2)
	c := CheckOutput(r, Options{})
	if want := "Not ready to merge: 2 blocking findings to fix or override · 3 to update in place, 2 to replace"; c.Title != want {
		t.Errorf("title %q, want %q", c.Title, want)
	}
	for _, want := range []string{"### 🛑 Must be fixed or overridden before merging", "### GPU changes", "### Cost"} {
		if !strings.Contains(c.Summary, want) {
			t.Errorf("summary lacks %q", want)
		}
	}
	if strings.Contains(c.Summary, "### Changes in") || strings.Contains(c.Summary, "<details>") {
		t.Errorf("summary holds the change list")
	}
	for _, want := range []string{"### Changes in `big` (`prod`)", "| update | `terraform_data.r[2]` |", "<details><summary><code>terraform_data.r[0]</code>"} {
		if !strings.Contains(c.Text, want) {
			t.Errorf("text lacks %q", want)
		}
	}
	if strings.Contains(c.Text, "Must be fixed") {
		t.Errorf("text repeats the findings")
	}
	checkStructure(t, c.Summary, "")
	checkStructure(t, c.Text, "")
}

func TestCheckLimits(t *testing.T) {
	t.Parallel()
	r := bigReport(t, 20000, 3000)
	c := CheckOutput(r, Options{DetailsURL: "https://github.com/acme/ml/pull/1"})
	if len(c.Summary) > MaxCheckBytes || len(c.Text) > MaxCheckBytes {
		t.Fatalf("summary %d, text %d bytes; limit %d", len(c.Summary), len(c.Text), MaxCheckBytes)
	}
	if !strings.Contains(c.Summary, "findings") || !strings.Contains(c.Summary, "Shortened to fit") {
		t.Errorf("summary does not say findings were left out")
	}
	if !strings.Contains(c.Text, "Everything is in the output of `planwarden review --format json` run on the plan.") {
		t.Errorf("text does not say where the rest is:\n%s", c.Text[:500])
	}
	if len(c.Title) > 255 {
		t.Errorf("title is %d bytes", len(c.Title))
	}
	checkStructure(t, c.Summary, "https://github.com/acme/ml/pull/1")
	checkStructure(t, c.Text, "")
}

func TestAnnotations(t *testing.T) {
	t.Parallel()
	r := bigReport(t, 0, 60)
	p := r.Projects[0]
	p.Findings = append(p.Findings,
		rules.Finding{Rule: "cost-increase", Severity: rules.SeverityWarn, Address: "azurerm_kubernetes_cluster_node_pool.gpu1", Message: "Costs more."},
		rules.Finding{Rule: "required-tags", Severity: rules.SeverityBlock, Address: "nowhere.x", Message: "Not located."})
	locate := func(project, address string) (string, int, bool) {
		if project != "big" || !strings.HasPrefix(address, "azurerm_") {
			return "", 0, false
		}
		var n int
		fmt.Sscanf(strings.TrimPrefix(address, "azurerm_kubernetes_cluster_node_pool.gpu"), "%d", &n)
		return "infra/aks.tf", 10 + n, true
	}
	tests := map[string]struct {
		locate   func(string, string) (string, int, bool)
		want     int
		wantNote bool
	}{
		"no locator":      {nil, 0, false},
		"over the limit":  {locate, MaxAnnotations, true},
		"nothing located": {func(string, string) (string, int, bool) { return "", 0, false }, 0, false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			c := CheckOutput(r, Options{Locate: tc.locate})
			if len(c.Annotations) != tc.want {
				t.Fatalf("%d annotations, want %d", len(c.Annotations), tc.want)
			}
			if note := strings.Contains(c.Summary, "more findings have a file and line but are not annotated"); note != tc.wantNote {
				t.Errorf("left-out annotation note = %v", note)
			}
			if tc.want == 0 {
				return
			}
			a := c.Annotations[0]
			want := record.Annotation{Path: "infra/aks.tf", StartLine: 10, EndLine: 10, Level: "failure",
				Title:   "gpu-sku-loss: azurerm_kubernetes_cluster_node_pool.gpu0",
				Message: "The pool loses its GPUs.\n\nWhat to do: Set vm_size back to a GPU SKU."}
			if a != want {
				t.Errorf("first annotation %+v, want %+v", a, want)
			}
			for _, a := range c.Annotations {
				if a.Level != "failure" {
					t.Errorf("a %s annotation made it in before all blocking ones", a.Level)
				}
			}
		})
	}
	// Warnings get the warning level.
	r2 := &review.Report{Verdict: rules.VerdictWarn, Projects: []*review.Project{{Name: "big", Complete: true,
		Findings: []rules.Finding{{Rule: "cost-increase", Severity: rules.SeverityWarn, Address: "azurerm_x.gpu3", Message: "m"},
			{Rule: "n", Severity: rules.SeverityInfo, Address: "azurerm_x.gpu4", Message: "m"}}}}}
	c := CheckOutput(r2, Options{Locate: func(string, string) (string, int, bool) { return "main.tf", 3, true }})
	if len(c.Annotations) != 2 || c.Annotations[0].Level != "warning" || c.Annotations[1].Level != "notice" {
		t.Errorf("levels: %+v", c.Annotations)
	}
}

// TestSameReportTwoShapes: the comment and the check run say the same
// things, from one renderer.
func TestSameReportTwoShapes(t *testing.T) {
	t.Parallel()
	r := bigReport(t, 5, 2)
	body := Render(r, Options{})
	c := CheckOutput(r, Options{})
	for _, part := range []string{c.Summary, c.Text} {
		for _, block := range strings.Split(strings.TrimSpace(part), "\n\n") {
			if !strings.Contains(body, block) {
				t.Errorf("check output block not in the comment:\n%s", block)
			}
		}
	}
}

func TestConclusionOverridden(t *testing.T) {
	t.Parallel()
	over := &rules.Override{Rule: "gpu-sku-loss", By: "alice"}
	tests := map[string]struct {
		findings []rules.Finding
		want     string
	}{
		"every block overridden":         {[]rules.Finding{{Rule: "gpu-sku-loss", Severity: rules.SeverityBlock, Override: over}}, "success"},
		"an override and a live warning": {[]rules.Finding{{Rule: "gpu-sku-loss", Severity: rules.SeverityBlock, Override: over}, {Rule: "cost-increase", Severity: rules.SeverityWarn}}, "neutral"},
		"only a warning":                 {[]rules.Finding{{Rule: "cost-increase", Severity: rules.SeverityWarn}}, "neutral"},
		"info beside an override":        {[]rules.Finding{{Rule: "gpu-sku-loss", Severity: rules.SeverityBlock, Override: over}, {Rule: "x", Severity: rules.SeverityInfo}}, "success"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			r := &review.Report{Verdict: rules.VerdictWarn, Projects: []*review.Project{{Name: "p", Findings: tc.findings}}}
			if got := Conclusion(r); got != tc.want {
				t.Errorf("conclusion %q, want %q", got, tc.want)
			}
		})
	}
}
