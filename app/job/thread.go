package job

import (
	"fmt"
	"regexp"
	"strconv"
	"sync"
)

// A slash command's thread is named by a correlation id, pw-<PR>-<comment
// id>. It is dispatched as the workflow input correlation_id; the workflow
// puts it in its run-name, so the run's workflow_run events (whose
// display_title is the run-name) find the thread again.

// ThreadID is the correlation id of the command in comment commentID on
// pull request pr.
func ThreadID(pr int, commentID int64) string { return fmt.Sprintf("pw-%d-%d", pr, commentID) }

var threadInTitle = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[^A-Za-z0-9-])(pw-([0-9]{1,9})-[0-9]{1,19})(?:$|[^A-Za-z0-9-])`)
})

// ThreadOfTitle finds the correlation id a run's title carries, and the
// pull request it names. The title is the workflow's to write: the id
// says where to look, never what to trust.
func ThreadOfTitle(title string) (id string, pr int, ok bool) {
	m := threadInTitle().FindStringSubmatch(title)
	if m == nil {
		return "", 0, false
	}
	n, err := strconv.Atoi(m[2])
	return m[1], n, err == nil && n > 0
}
