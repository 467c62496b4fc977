package command

import (
	"fmt"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/rules"
)

// Without declared projects (and no review yet) any well-formed name is
// taken, at most maxCommandProjects of them.
func TestCommandProjectsBounds(t *testing.T) {
	t.Parallel()
	cfg := rules.DefaultConfig()
	var many []string
	for i := range maxCommandProjects + 1 {
		many = append(many, fmt.Sprintf("p%d", i))
	}
	if got, why := commandProjects(cfg, port.PRState{}, many[:maxCommandProjects]); len(got) != maxCommandProjects || why != "" {
		t.Errorf("%d projects: got %d, %q; want all taken", maxCommandProjects, len(got), why)
	}
	if got, why := commandProjects(cfg, port.PRState{}, many); got != nil || !strings.Contains(why, "at most 20") {
		t.Errorf("%d projects: got %v, %q; want a refusal", len(many), got, why)
	}
	st := port.PRState{Projects: []port.ProjectStatus{{Name: "gpu"}}}
	if _, why := commandProjects(cfg, st, []string{"gpux"}); !strings.Contains(why, "did you mean `gpu`") {
		t.Errorf("a name the last review does not know: %q, want a did-you-mean from the review's projects", why)
	}
}
