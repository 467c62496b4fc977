package app

import (
	"context"
	"fmt"

	"github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/publish"
	"github.com/planwarden/planwarden/app/worklog"
)

// settle is the top of every job: a retryable error goes back to the
// queue; a final one (publish.FinalOf) concludes the check it concerns,
// is logged once, and ends the job.
func (a *App) settle(ctx context.Context, pub port.Publisher, j job.Job, err error) error {
	if err == nil {
		return nil
	}
	fin := publish.FinalOf(err)
	if fin == nil {
		return fmt.Errorf("process %s %s: %w", j.Event, j.DeliveryID, err)
	}
	worklog.From(ctx).Error("job ended: trying again would not help", "title", fin.Check().Title, "err", err)
	check, runID, ok := publish.Concerned(err)
	if !ok {
		return nil
	}
	if cerr := a.writer(pub, repoOf(j)).Complete(ctx, check, fin.Check(), runID); cerr != nil {
		if publish.FinalOf(cerr) == nil {
			return fmt.Errorf("process %s %s: conclude the check: %w", j.Event, j.DeliveryID, cerr)
		}
		worklog.From(ctx).Error("the check could not be concluded", "err", cerr)
	}
	return nil
}
