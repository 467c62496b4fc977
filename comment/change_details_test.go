package comment

import (
	"fmt"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/review/reviewtest"
)

// The Details cell of a change row: how many triggered actions are left
// out, and how a SKU change reads for each action.
func TestChangeDetailsCell(t *testing.T) {
	tests := map[string]struct {
		c    *review.Change
		want string
	}{
		"five triggered actions: two named, three counted": {
			reviewtest.Change(review.ChangeRow{Action: "update", TriggersActions: []string{"action.a.one", "action.a.two", "action.a.three", "action.a.four", "action.a.five"}}),
			"triggers `action.a.one`, `action.a.two`, … 3 more actions",
		},
		"an update from no SKU":        {reviewtest.Change(review.ChangeRow{Action: "update", SKUAfter: "Standard_D4s_v5"}), "SKU none → `Standard_D4s_v5`"},
		"a replacement from no SKU":    {reviewtest.Change(review.ChangeRow{Action: "replace", SKUAfter: "Standard_D4s_v5"}), "SKU `Standard_D4s_v5`"},
		"a deletion names the old SKU": {reviewtest.Change(review.ChangeRow{Action: "delete", SKUBefore: "Standard_D4s_v5"}), "SKU `Standard_D4s_v5`"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := details(tc.c); got != tc.want {
				t.Errorf("details = %q, want %q", got, tc.want)
			}
		})
	}
}

// An attribute diff stops at 80 lines, or past 8,000 bytes, and says how
// many attributes it leaves out.
func TestDiffSaysHowManyAttributesAreLeftOut(t *testing.T) {
	change := func(n, size int) *review.Report {
		var before, after []string
		for i := 0; i < n; i++ {
			before = append(before, fmt.Sprintf(`"a%03d":"%s"`, i, strings.Repeat("b", size)))
			after = append(after, fmt.Sprintf(`"a%03d":"%s"`, i, strings.Repeat("c", size)))
		}
		rc := `{"address":"terraform_data.r","mode":"managed","type":"terraform_data","name":"r","provider_name":"terraform.io/builtin/terraform",` +
			`"change":{"actions":["update"],"before":{` + strings.Join(before, ",") + `},"after":{` + strings.Join(after, ",") + `}}}`
		plan, err := planparse.Parse("p.json", []byte(`{"format_version":"1.2","resource_changes":[`+rc+`]}`))
		if err != nil {
			t.Fatal(err)
		}
		c := plan.Changes[0]
		return &review.Report{Projects: []*review.Project{{Name: "p", Complete: true, Plan: plan, Summary: review.Summary{Update: 1},
			Changes: []*review.Change{{Source: c}}}}}
	}
	tests := map[string]struct {
		n, size int
		want    string
	}{
		"85 short attributes": {85, 1, "… 5 more attributes not shown"},
		"30 long attributes":  {30, 200, "… 10 more attributes not shown"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if body := Render(change(tc.n, tc.size), Options{}); !strings.Contains(body, tc.want) {
				i := strings.Index(body, "more attribute")
				t.Errorf("no %q in the comment; %q", tc.want, body[max(0, i-40):max(0, i+40)])
			}
		})
	}
}
