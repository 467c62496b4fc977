package publish

import (
	"context"
	"slices"
	"time"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/worklog"
	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/record"
)

// HasFinishedReplies reports whether st holds the reply of a finished
// command thread that is not hidden yet.
func HasFinishedReplies(st port.PRState, now time.Time) bool {
	return slices.ContainsFunc(st.Threads, func(t record.Thread) bool { return t.ReplyID != 0 && !t.Minimized && t.Done(now) })
}

// HideOutdated minimizes planwarden's replies of finished threads of pull
// request pr other than keep, and remembers which it hid (a destroy
// request that lapsed says so first). Only the comments the bot created
// for the threads it remembers are touched. Whether the config wants them
// hidden is the caller's to ask. It is best effort: a failure is logged.
func (w Writer) HideOutdated(ctx context.Context, s *State, pr int, keep string) {
	key := KeyOf(w.Repo, pr)
	st, _, err := s.PR(ctx, key)
	if err != nil {
		worklog.From(ctx).Warn("could not minimize outdated replies", "err", err)
		return
	}
	hidden, err := w.minimizeOutdated(ctx, pr, st, keep)
	if err != nil {
		worklog.From(ctx).Warn("could not minimize outdated replies", "err", err)
	}
	if len(hidden) == 0 {
		return
	}
	now := w.Now()
	if _, err := s.Edit(ctx, key, func(st *port.PRState) bool {
		for _, id := range hidden {
			if t := FindThread(st, id); t != nil {
				t.Minimized = true
				if t.Lapsed(now) {
					*t = t.WithStage(record.DestroyExpired)
				}
			}
		}
		return true
	}); err != nil {
		worklog.From(ctx).Warn("could not record the minimized replies", "err", err)
	}
}

// minimizeOutdated minimizes the replies HideOutdated picks and returns
// the ids of their threads.
func (w Writer) minimizeOutdated(ctx context.Context, pr int, st port.PRState, keep string) ([]string, error) {
	todo := map[int64]record.Thread{}
	for _, t := range st.Threads {
		if t.ID != keep && t.ReplyID != 0 && !t.Minimized && t.Done(w.Now()) {
			todo[t.ReplyID] = t
		}
	}
	if len(todo) == 0 {
		return nil, nil
	}
	comments, err := w.GitHub.ListIssueComments(ctx, w.Repo, pr) // for the replies' GraphQL ids
	if err != nil {
		return nil, err
	}
	var hidden []string
	for _, c := range comments {
		t, ok := todo[c.ID] // a reply the bot created: its id was recorded then
		if !ok || c.NodeID == "" {
			continue
		}
		if t.Lapsed(w.Now()) { // say so before hiding it
			t = t.WithStage(record.DestroyExpired)
			if err := w.GitHub.EditComment(ctx, w.Repo, t.ReplyID, comment.Reply(t)); err != nil {
				return hidden, err
			}
		}
		if err := w.GitHub.MinimizeComment(ctx, c.NodeID); err != nil {
			return hidden, err
		}
		hidden = append(hidden, t.ID)
		worklog.From(ctx).Info("outdated reply minimized", "comment", c.ID, "thread", t.ID)
	}
	return hidden, nil
}
