package comment

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/review/reviewtest"
	"github.com/planwarden/planwarden/rules"
)

// costProjects counts the per-project lines of a body's Cost section and
// reads its "… and N more projects" line (-1 when there is none).
func costProjects(body string) (listed, more int) {
	more = -1
	moreLine := regexp.MustCompile(`… and ([\d,]+) more projects?`)
	for _, line := range strings.Split(body, "\n") {
		if strings.Contains(line, " per hour (") && strings.Contains(line, "at maximum scale") {
			listed++
		}
		if m := moreLine.FindStringSubmatch(line); m != nil && !strings.Contains(line, "incomplete") {
			more, _ = strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
		}
	}
	return listed, more
}

func costReport(projects int) *review.Report {
	r := &review.Report{Verdict: rules.VerdictFail}
	for i := range projects {
		p := &review.Project{Name: fmt.Sprintf("project-%d", i), Environment: "prod", Complete: true,
			Summary: review.Summary{Create: 1},
			Changes: []*review.Change{reviewtest.Change(review.ChangeRow{Address: "aws_instance.gpu", Type: "aws_instance", Action: "create", HourlyAfter: f64(32.77)})},
			Cost:    review.Cost{HourlyBefore: f64(0), HourlyAfter: f64(32.77), HourlyDelta: f64(32.77), MaxHourlyAfter: f64(32.77)}}
		r.Projects = append(r.Projects, p)
	}
	return r
}

// TestCostProjectListCut: when the comment cannot hold every project's
// cost line, the Cost section lists as many as one of the list lengths
// tried (headCaps) and says how many more there are, so the listed and
// the left out add up to the projects.
func TestCostProjectListCut(t *testing.T) {
	t.Parallel()
	opt := Options{Marker: true, DetailsURL: "https://github.com/acme/ml/runs/1"}

	body := Render(costReport(3000), opt)
	listed, more := costProjects(body)
	if !slices.Contains(headCaps, listed) || listed+more != 3000 {
		t.Errorf("3000 projects: %d cost lines and %d more, want a list length of %v and the rest counted", listed, more, headCaps)
	}

}
