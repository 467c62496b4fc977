package comment

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/review/reviewtest"
)

// Age at its edges: a minute is "1 min", an hour "1 h", two days "2 days".
func TestAgeAtItsEdges(t *testing.T) {
	for d, want := range map[time.Duration]string{
		time.Minute - time.Second: "just now", time.Minute: "1 min",
		time.Hour - time.Second: "59 min", time.Hour: "1 h",
		48*time.Hour - time.Second: "47 h", 48 * time.Hour: "2 days",
	} {
		if got := Age(d); got != want {
			t.Errorf("Age(%v) = %q, want %q", d, got, want)
		}
	}
}

// Text from a plan loses C1 controls and every bidirectional override or
// isolate (Trojan Source), and keeps the characters just outside them.
func TestCleanAtTheEdgesOfEachRange(t *testing.T) {
	tests := map[string]string{
		"a\u0080b": "a\ufffdb", "a\u009fb": "a\ufffdb", "a\u00a0b": "a\u00a0b", "a b": "a b", "a\u007fb": "a\ufffdb",
		"a\u202ab": "a\ufffdb", "a\u202eb": "a\ufffdb", "a\u2029b": "a\nb", "a\u202fb": "a\u202fb",
		"a\u2066b": "a\ufffdb", "a\u2069b": "a\ufffdb", "a\u2065b": "a\u2065b", "a\u206ab": "a\u206ab",
	}
	for in, want := range tests {
		if got := clean(in, "\n"); got != want {
			t.Errorf("clean(%+q) = %+q, want %+q", in, got, want)
		}
	}
}

// A project without a name is called by its plan file, else by its place.
func TestProjectNameFallbacks(t *testing.T) {
	v := &view{}
	if got := v.projectName(&review.Project{PlanFile: "plans/gpu.json"}, 0); got != "plans/gpu.json" {
		t.Errorf("projectName with a plan file = %q, want plans/gpu.json", got)
	}
	if got := v.projectName(&review.Project{}, 1); got != "project 2" {
		t.Errorf("projectName of the second unnamed project = %q, want project 2", got)
	}
}

// Lists cut at n say how many items they leave out.
func TestListSomeCounts(t *testing.T) {
	var items []string
	for i := 1; i <= 11; i++ {
		items = append(items, fmt.Sprint("r", i))
	}
	if got, want := listSome(items, 8), strings.Join(items[:8], ", ")+" and 3 more"; got != want {
		t.Errorf("listSome = %q, want %q", got, want)
	}
}

// The project table lists 100 projects and counts the rest.
func TestProjectTableCountsTheProjectsLeftOut(t *testing.T) {
	r := &review.Report{}
	for i := 0; i < 103; i++ {
		r.Projects = append(r.Projects, &review.Project{Name: fmt.Sprint("p", i), Environment: "prod", Complete: true})
	}
	sum := CheckOutput(r, Options{ProjectRuns: map[string]Run{}}).Summary
	if !strings.Contains(sum, "_3 more projects are not listed._") {
		_, table, _ := strings.Cut(sum, "### Projects")
		t.Errorf("no count of the 3 projects left out:\n%s", table[max(0, len(table)-300):])
	}
}

// An action's configuration shows an empty list as one, not as nothing.
func TestActionConfigShowsAnEmptyList(t *testing.T) {
	p, err := planparse.Parse("a.json", []byte(`{"format_version":"1.2","action_invocations":[{"address":"action.aws_lambda_invoke.a","type":"aws_lambda_invoke","name":"a",`+
		`"config_values":{"function_name":"drain","targets":[]},"lifecycle_action_trigger":{"triggering_resource_address":"aws_instance.x","action_trigger_event":"BeforeCreate"}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	body := Render(review.Build([]review.Input{{Name: "a", Plan: p}}, review.Options{}), Options{})
	if want := "(2 attributes)</summary>\n\n```hcl\nfunction_name = \"drain\"\ntargets = []\n```"; !strings.Contains(body, want) {
		t.Errorf("the action's configuration lacks %q:\n%s", want, body)
	}
}

// The approximate-price note names a project's first five resources priced
// at another region's list price, counts the rest, and names each region once.
func TestApproximateItemsNameFiveAndCount(t *testing.T) {
	p := &review.Project{Name: "ml"}
	for i := 1; i <= 7; i++ {
		region := "us-east-1"
		if i == 3 {
			region = "westeurope"
		}
		p.Changes = append(p.Changes, reviewtest.Change(review.ChangeRow{Address: fmt.Sprint("aws_instance.r", i), PriceBasis: "approximate", PriceRegion: region}))
	}
	p.Changes = append(p.Changes, reviewtest.Change(review.ChangeRow{Address: "aws_instance.exact", PriceBasis: "exact", PriceRegion: "eu-west-1"}))
	got := (&view{r: &review.Report{Projects: []*review.Project{p}}}).approximateItems()
	want := []string{"≈ Approximate: `aws_instance.r1`, `aws_instance.r2`, `aws_instance.r3`, `aws_instance.r4`, `aws_instance.r5` and 2 more: " +
		"priced at the `us-east-1`, `westeurope` list price, since the catalog has no price in their region, or the plan does not name it (other regions usually differ by 0–30%)."}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("approximate items (-want +got):\n%s", diff)
	}
}
