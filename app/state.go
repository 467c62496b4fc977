package app

import (
	"context"
	"errors"
	"fmt"
)

// maxStateAttempts bounds how often a job re-reads and re-applies its
// change when other jobs keep writing the PR's state in between.
const maxStateAttempts = 5

// updatePR reads the PR's state, lets change edit it, and writes it back
// over the version it read. When another job wrote in between (a second
// `serve` process, or a Lambda job of another message group), it reads
// again and re-applies change, so neither write is lost. change returns
// false to write nothing.
func (a *App) updatePR(ctx context.Context, key string, change func(st *PRState) (bool, error)) (PRState, error) {
	for attempt := 1; ; attempt++ {
		st, _, err := a.store.PR(ctx, key)
		if err != nil {
			return st, err
		}
		write, err := change(&st)
		if err != nil || !write {
			return st, err
		}
		err = a.store.PutPR(ctx, key, st, a.cfg.StateTTL)
		if err == nil {
			st.Version++
			return st, nil
		}
		if !errors.Is(err, ErrConflict) || attempt == maxStateAttempts {
			return st, fmt.Errorf("update pr state %s: %w", key, err)
		}
		logger(ctx).Info("pr state changed by another job; reading it again", "attempt", attempt)
	}
}
