package publish

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/porttest"
	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/record"
)

func TestCompleteCheckSendsAnnotationsFiftyAtATime(t *testing.T) {
	t.Parallel()
	var batches []int
	gh := &porttest.Publisher{UpdateCheckRunFunc: func(_ port.Repo, c port.CheckRun) error { batches = append(batches, len(c.Annotations)); return nil }}
	w := Writer{GitHub: gh, Repo: port.Repo{Owner: "o", Name: "r"}, Now: time.Now}
	ann := make([]record.Annotation, 120)
	if err := w.Complete(context.Background(), port.CheckRun{ID: 1}, comment.Check{Conclusion: "failure", Title: "t", Summary: "s", Annotations: ann}, 7); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(batches) != "[50 50 20]" {
		t.Errorf("annotation batches %v, want [50 50 20]", batches)
	}
}
