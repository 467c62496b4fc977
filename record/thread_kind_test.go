package record

import (
	"strings"
	"testing"
	"time"
)

func TestAThreadIsExactlyOneKind(t *testing.T) {
	t.Parallel()
	plan, destroy, note := &PlanThread{}, &DestroyThread{Stage: DestroyAwaiting}, &Note{Command: "help"}
	for name, tc := range map[string]struct {
		thread  Thread
		command string
		err     string
	}{
		"a plan":                 {thread: Thread{ID: "pw-7-1", Plan: plan}, command: "plan"},
		"a destroy":              {thread: Thread{ID: "pw-7-1", Destroy: destroy}, command: "destroy-staging"},
		"a note names its reply": {thread: Thread{ID: "pw-7-1", Note: note}, command: "help"},
		"no kind":                {thread: Thread{ID: "pw-7-1"}, err: "no kind"},
		"two kinds":              {thread: Thread{ID: "pw-7-1", Plan: plan, Note: note}, err: "more than one kind"},
	} {
		t.Run(name, func(t *testing.T) {
			err := tc.thread.Check()
			if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
				t.Fatalf("Check() = %v, want %q", err, tc.err)
			}
			if tc.err == "" && tc.thread.Command() != tc.command {
				t.Errorf("Command() = %q, want %q", tc.thread.Command(), tc.command)
			}
		})
	}
}

func TestADestroyRequestLapsesAfterItsWindow(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	for name, tc := range map[string]struct {
		thread Thread
		after  time.Duration
		lapsed bool
		done   bool
	}{
		"awaiting, in time":         {thread: Thread{At: at, Destroy: &DestroyThread{Stage: DestroyAwaiting}}, after: ConfirmWindow},
		"awaiting, too late":        {thread: Thread{At: at, Destroy: &DestroyThread{Stage: DestroyAwaiting}}, after: ConfirmWindow + time.Second, lapsed: true, done: true},
		"confirmed, run going":      {thread: Thread{At: at, Destroy: &DestroyThread{Stage: DestroyConfirmed, Dispatch: Dispatch{Run: ThreadRun{Status: "in_progress"}}}}, after: time.Hour},
		"confirmed, run completed":  {thread: Thread{At: at, Destroy: &DestroyThread{Stage: DestroyConfirmed, Dispatch: Dispatch{Run: ThreadRun{Status: "completed"}}}}, after: time.Hour, done: true},
		"superseded":                {thread: Thread{At: at, Destroy: &DestroyThread{Stage: DestroySuperseded}}, done: true},
		"a plan whose run is going": {thread: Thread{At: at, Plan: &PlanThread{Dispatch: Dispatch{Run: ThreadRun{Status: "queued"}}}}, after: time.Hour},
		"a plan whose run finished": {thread: Thread{At: at, Plan: &PlanThread{Dispatch: Dispatch{Run: ThreadRun{Status: "completed"}}}}, done: true},
		"a note":                    {thread: Thread{At: at, Note: &Note{Command: "refused"}}, done: true},
	} {
		t.Run(name, func(t *testing.T) {
			now := at.Add(tc.after)
			if got := tc.thread.Lapsed(now); got != tc.lapsed {
				t.Errorf("Lapsed = %v, want %v", got, tc.lapsed)
			}
			if got := tc.thread.Done(now); got != tc.done {
				t.Errorf("Done = %v, want %v", got, tc.done)
			}
		})
	}
}

// A thread read from the state and moved to another stage must not change
// the state it was read from before that state is written.
func TestWithStageLeavesTheThreadItWasMadeFrom(t *testing.T) {
	t.Parallel()
	state := []Thread{{ID: "pw-7-1", Destroy: &DestroyThread{Stage: DestroyAwaiting}}}
	moved := state[0].WithStage(DestroySuperseded)
	if moved.Destroy.Stage != DestroySuperseded || state[0].Destroy.Stage != DestroyAwaiting {
		t.Errorf("stages %q (copy) and %q (state); want superseded and awaiting", moved.Destroy.Stage, state[0].Destroy.Stage)
	}
}
