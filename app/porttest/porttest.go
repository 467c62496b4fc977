// Package porttest is the shared test suite of the App's ports: every Store
// implementation (SQLite for `planwarden serve`, DynamoDB for Lambda, memory
// for tests) runs RunStore and so behaves the same.
package porttest

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/record"
)

const hour = time.Hour

// RunStore checks the port.Store contract. newStore returns an empty store
// for one subtest; it may register cleanups on t.
func RunStore(t *testing.T, newStore func(t *testing.T) port.Store) {
	t.Helper()
	ctx := context.Background()

	t.Run("a new delivery is new once", func(t *testing.T) {
		s := newStore(t)
		for i, want := range []bool{true, false, false} {
			got, err := s.MarkDelivery(ctx, "72d3162e-cc78-11e3-81ab-4c9367dc0958", hour)
			if err != nil {
				t.Fatalf("MarkDelivery #%d: %v", i+1, err)
			}
			if got != want {
				t.Errorf("MarkDelivery #%d = %v, want %v", i+1, got, want)
			}
		}
	})

	t.Run("different deliveries are each new", func(t *testing.T) {
		s := newStore(t)
		for _, id := range []string{"d-1", "d-2", "D-1", "d-1 "} {
			got, err := s.MarkDelivery(ctx, id, hour)
			if err != nil {
				t.Fatalf("MarkDelivery(%q): %v", id, err)
			}
			if !got {
				t.Errorf("MarkDelivery(%q) = false, want true (first time)", id)
			}
		}
	})

	t.Run("concurrent redeliveries: exactly one is new", func(t *testing.T) {
		s := newStore(t)
		const n = 8
		var (
			wg    sync.WaitGroup
			mu    sync.Mutex
			fresh int
			errs  []error
		)
		for range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ok, err := s.MarkDelivery(ctx, "same-delivery", hour)
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					errs = append(errs, err)
				}
				if ok {
					fresh++
				}
			}()
		}
		wg.Wait()
		if len(errs) > 0 {
			t.Fatalf("MarkDelivery: %v", errs)
		}
		if fresh != 1 {
			t.Errorf("%d of %d concurrent MarkDelivery calls reported new, want exactly 1", fresh, n)
		}
	})

	t.Run("empty ids and keys are refused", func(t *testing.T) {
		s := newStore(t)
		if ok, err := s.MarkDelivery(ctx, "", hour); err == nil || ok {
			t.Errorf("MarkDelivery(\"\") = %v, %v; want an error", ok, err)
		}
		if err := s.PutPR(ctx, "", fullState(), hour); err == nil {
			t.Errorf("PutPR(\"\") succeeded; want an error")
		}
	})

	t.Run("an unknown PR is absent, not an error", func(t *testing.T) {
		s := newStore(t)
		st, ok, err := s.PR(ctx, "octo/infra#404")
		if err != nil {
			t.Fatalf("PR: %v", err)
		}
		if ok {
			t.Errorf("PR(unknown) reported found: %+v", st)
		}
	})

	t.Run("PR state round-trips", func(t *testing.T) {
		s := newStore(t)
		want := fullState()
		if err := s.PutPR(ctx, "octo/infra#7", want, hour); err != nil {
			t.Fatalf("PutPR: %v", err)
		}
		got, ok, err := s.PR(ctx, "octo/infra#7")
		if err != nil || !ok {
			t.Fatalf("PR = found %v, err %v; want the stored state", ok, err)
		}
		want.Version = 1
		if diff := cmp.Diff(want, got, timeEqual); diff != "" {
			t.Errorf("PR state (-put +got):\n%s", diff)
		}
	})

	t.Run("the zero PR state round-trips", func(t *testing.T) {
		s := newStore(t)
		if err := s.PutPR(ctx, "octo/infra#8", port.PRState{}, hour); err != nil {
			t.Fatalf("PutPR: %v", err)
		}
		got, ok, err := s.PR(ctx, "octo/infra#8")
		if err != nil || !ok {
			t.Fatalf("PR = found %v, err %v; want the stored zero state", ok, err)
		}
		if diff := cmp.Diff(port.PRState{Version: 1}, got, timeEqual); diff != "" {
			t.Errorf("PR state (-put +got):\n%s", diff)
		}
	})

	t.Run("a second put replaces the first", func(t *testing.T) {
		s := newStore(t)
		first := fullState()
		second := port.PRState{CommentID: first.CommentID, HeadSHA: "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", Conclusion: "failure", UpdatedAt: first.UpdatedAt.Add(time.Minute), Version: 1}
		for _, st := range []port.PRState{first, second} {
			if err := s.PutPR(ctx, "octo/infra#9", st, hour); err != nil {
				t.Fatalf("PutPR at version %d: %v", st.Version, err)
			}
		}
		got, _, err := s.PR(ctx, "octo/infra#9")
		if err != nil {
			t.Fatalf("PR: %v", err)
		}
		second.Version = 2
		if diff := cmp.Diff(second, got, timeEqual); diff != "" {
			t.Errorf("PR state after two puts (-second +got):\n%s", diff)
		}
	})

	t.Run("keys are independent", func(t *testing.T) {
		s := newStore(t)
		keys := []string{"octo/infra#1", "octo/infra#10", "octo/infra-live#1", "Octo/infra#1", "octo/infra@0123456789abcdef0123456789abcdef01234567"}
		for i, k := range keys {
			if err := s.PutPR(ctx, k, port.PRState{CommentID: int64(i + 1), UpdatedAt: fixed}, hour); err != nil {
				t.Fatalf("PutPR(%q): %v", k, err)
			}
		}
		for i, k := range keys {
			got, ok, err := s.PR(ctx, k)
			if err != nil || !ok {
				t.Fatalf("PR(%q) = found %v, err %v", k, ok, err)
			}
			if got.CommentID != int64(i+1) {
				t.Errorf("PR(%q).CommentID = %d, want %d", k, got.CommentID, i+1)
			}
		}
	})

	t.Run("delivery ids and PR keys do not collide", func(t *testing.T) {
		s := newStore(t)
		const k = "octo/infra#11"
		if _, err := s.MarkDelivery(ctx, k, hour); err != nil {
			t.Fatalf("MarkDelivery: %v", err)
		}
		if _, ok, err := s.PR(ctx, k); err != nil || ok {
			t.Errorf("PR(%q) after MarkDelivery(%q) = found %v, err %v; want absent", k, k, ok, err)
		}
		if err := s.PutPR(ctx, "octo/infra#12", port.PRState{UpdatedAt: fixed}, hour); err != nil {
			t.Fatalf("PutPR: %v", err)
		}
		if ok, err := s.MarkDelivery(ctx, "octo/infra#12", hour); err != nil || !ok {
			t.Errorf("MarkDelivery(%q) after PutPR of that key = %v, %v; want new", "octo/infra#12", ok, err)
		}
	})

	t.Run("a forgotten delivery is new again", func(t *testing.T) {
		s := newStore(t)
		f, ok := s.(port.DeliveryForgetter)
		if !ok {
			t.Skip("the store cannot forget deliveries")
		}
		if ok, err := s.MarkDelivery(ctx, "d-forget", hour); err != nil || !ok {
			t.Fatalf("MarkDelivery = %v, %v; want new", ok, err)
		}
		if ok, err := s.MarkDelivery(ctx, "d-keep", hour); err != nil || !ok {
			t.Fatalf("MarkDelivery = %v, %v; want new", ok, err)
		}
		if err := f.ForgetDelivery(ctx, "d-forget"); err != nil {
			t.Fatalf("ForgetDelivery: %v", err)
		}
		if err := f.ForgetDelivery(ctx, "d-never-seen"); err != nil {
			t.Errorf("ForgetDelivery of an unknown id: %v; want no error", err)
		}
		if ok, err := s.MarkDelivery(ctx, "d-forget", hour); err != nil || !ok {
			t.Errorf("MarkDelivery after ForgetDelivery = %v, %v; want new again", ok, err)
		}
		if ok, err := s.MarkDelivery(ctx, "d-keep", hour); err != nil || ok {
			t.Errorf("MarkDelivery of an id not forgotten = %v, %v; want a duplicate", ok, err)
		}
	})

	t.Run("a forgotten delivery leaves PR state alone", func(t *testing.T) {
		s := newStore(t)
		f, ok := s.(port.DeliveryForgetter)
		if !ok {
			t.Skip("the store cannot forget deliveries")
		}
		const k = "octo/infra#14"
		if err := s.PutPR(ctx, k, fullState(), hour); err != nil {
			t.Fatalf("PutPR: %v", err)
		}
		if err := f.ForgetDelivery(ctx, k); err != nil {
			t.Fatalf("ForgetDelivery: %v", err)
		}
		if _, ok, err := s.PR(ctx, k); err != nil || !ok {
			t.Errorf("PR(%q) after ForgetDelivery(%q) = found %v, err %v; want the state kept", k, k, ok, err)
		}
	})

	t.Run("a delivery is seen once marked, and looking marks nothing", func(t *testing.T) {
		s := newStore(t)
		c, ok := s.(port.DeliveryChecker)
		if !ok {
			t.Skip("the store cannot look deliveries up")
		}
		for i := range 2 {
			if seen, err := c.DeliverySeen(ctx, "d-look"); err != nil || seen {
				t.Fatalf("DeliverySeen #%d before any mark = %v, %v; want not seen", i+1, seen, err)
			}
		}
		if fresh, err := s.MarkDelivery(ctx, "d-look", hour); err != nil || !fresh {
			t.Fatalf("MarkDelivery after looking = %v, %v; want new (looking must not mark)", fresh, err)
		}
		if seen, err := c.DeliverySeen(ctx, "d-look"); err != nil || !seen {
			t.Errorf("DeliverySeen after MarkDelivery = %v, %v; want seen", seen, err)
		}
		const k = "octo/infra#16"
		if err := s.PutPR(ctx, k, fullState(), hour); err != nil {
			t.Fatalf("PutPR: %v", err)
		}
		if seen, err := c.DeliverySeen(ctx, k); err != nil || seen {
			t.Errorf("DeliverySeen(%q) after PutPR of that key = %v, %v; want not seen", k, seen, err)
		}
		if _, err := c.DeliverySeen(ctx, ""); err == nil {
			t.Errorf("DeliverySeen(\"\") = no error; want one")
		}
	})

	t.Run("a put over a version that is gone is a conflict and changes nothing", func(t *testing.T) {
		s := newStore(t)
		const k = "octo/infra#15"
		if err := s.PutPR(ctx, k, port.PRState{HeadSHA: "first", UpdatedAt: fixed}, hour); err != nil {
			t.Fatalf("PutPR: %v", err)
		}
		read, _, err := s.PR(ctx, k)
		if err != nil {
			t.Fatalf("PR: %v", err)
		}
		revoked := read
		revoked.Grants = nil
		revoked.Conclusion = "failure"
		if err := s.PutPR(ctx, k, revoked, hour); err != nil {
			t.Fatalf("PutPR at the version read: %v", err)
		}
		stale := read
		stale.Conclusion = "success"
		for name, st := range map[string]port.PRState{
			"the version read before the other write":       stale,
			"version 0 (written as if there were no state)": {HeadSHA: "new", UpdatedAt: fixed},
			"a version never stored":                        {HeadSHA: "new", UpdatedAt: fixed, Version: 7},
		} {
			err := s.PutPR(ctx, k, st, hour)
			if !errors.Is(err, port.ErrConflict) {
				t.Errorf("PutPR at %s = %v; want port.ErrConflict", name, err)
			}
		}
		got, _, err := s.PR(ctx, k)
		if err != nil {
			t.Fatalf("PR: %v", err)
		}
		if got.Conclusion != "failure" || got.Version != 2 {
			t.Errorf("after the refused puts: conclusion %q version %d; want the second write's failure at version 2", got.Conclusion, got.Version)
		}
	})

	t.Run("a put at version 0 on a PR never written succeeds once", func(t *testing.T) {
		s := newStore(t)
		const k = "octo/infra#16"
		if err := s.PutPR(ctx, k, port.PRState{HeadSHA: "a", UpdatedAt: fixed}, hour); err != nil {
			t.Fatalf("first PutPR at version 0: %v", err)
		}
		if err := s.PutPR(ctx, k, port.PRState{HeadSHA: "b", UpdatedAt: fixed}, hour); !errors.Is(err, port.ErrConflict) {
			t.Errorf("second PutPR at version 0 = %v; want port.ErrConflict", err)
		}
		if got, _, _ := s.PR(ctx, k); got.HeadSHA != "a" {
			t.Errorf("HeadSHA = %q after a refused put; want %q kept", got.HeadSHA, "a")
		}
	})

	t.Run("concurrent writers of one version: exactly one lands", func(t *testing.T) {
		s := newStore(t)
		const k = "octo/infra#17"
		if err := s.PutPR(ctx, k, port.PRState{UpdatedAt: fixed}, hour); err != nil {
			t.Fatalf("PutPR: %v", err)
		}
		read, _, err := s.PR(ctx, k)
		if err != nil {
			t.Fatalf("PR: %v", err)
		}
		const n = 8
		var (
			wg         sync.WaitGroup
			mu         sync.Mutex
			landed     []int
			conflicted int
			errs       []error
		)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				st := read
				st.RunID = int64(i + 1)
				err := s.PutPR(ctx, k, st, hour)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					landed = append(landed, i+1)
				case errors.Is(err, port.ErrConflict):
					conflicted++
				default:
					errs = append(errs, err)
				}
			}()
		}
		wg.Wait()
		if len(errs) > 0 {
			t.Fatalf("PutPR: %v", errs)
		}
		if len(landed) != 1 || conflicted != n-1 {
			t.Fatalf("%d writes landed, %d conflicted; want 1 and %d", len(landed), conflicted, n-1)
		}
		got, _, err := s.PR(ctx, k)
		if err != nil {
			t.Fatalf("PR: %v", err)
		}
		if got.RunID != int64(landed[0]) || got.Version != read.Version+1 {
			t.Errorf("stored RunID %d version %d; want the landed write's %d at version %d", got.RunID, got.Version, landed[0], read.Version+1)
		}
	})

	t.Run("a check summary at GitHub's limit round-trips", func(t *testing.T) {
		s := newStore(t)
		want := fullState()
		want.Summary = strings.Repeat("| `aws_sagemaker_endpoint.main` | replace | ✓ |\n", 65535/50)
		if err := s.PutPR(ctx, "octo/infra#13", want, hour); err != nil {
			t.Fatalf("PutPR: %v", err)
		}
		got, _, err := s.PR(ctx, "octo/infra#13")
		if err != nil {
			t.Fatalf("PR: %v", err)
		}
		if got.Summary != want.Summary {
			t.Errorf("Summary: got %d bytes, want the %d bytes stored", len(got.Summary), len(want.Summary))
		}
	})
}

var fixed = time.Date(2026, 3, 14, 15, 9, 26, 535897932, time.UTC)

func fullState() port.PRState {
	return port.PRState{
		CommentID:  1234567890123,
		HeadSHA:    "0123456789abcdef0123456789abcdef01234567",
		PlanTime:   fixed.Add(-time.Minute),
		Conclusion: "neutral",
		Title:      "2 warnings: +$3.06/h",
		Summary:    "| resource | action |\n|---|---|\n| `azurerm_kubernetes_cluster_node_pool.gpu` | update |\n",
		RunID:      9876543210,
		UpdatedAt:  fixed,
		CheckRunID: 4242424242,
		Grants: []record.Grant{
			{Rule: "gpu-sku-loss", Project: "gpu", Address: "azurerm_kubernetes_cluster_node_pool.gpu", Environment: "prod", Digest: "0011223344556677", By: "alice", At: fixed.Add(-30 * time.Second), Reason: "moving training to CPU — on purpose", HeadSHA: "0123456789abcdef0123456789abcdef01234567"},
			{Rule: "endpoint-replacement", Address: `aws_sagemaker_endpoint.main["a b"]`, Project: "serving", Environment: "staging", Digest: "8899aabbccddeeff", By: "bob", At: fixed, Reason: "blue/green"},
		},
		Runs:     []record.Run{{ID: 9876543210, Attempt: 2, Path: ".github/workflows/planwarden-plan.yml", Event: "pull_request", HeadSHA: "0123456789abcdef0123456789abcdef01234567", HeadRepo: "octo/infra", Conclusion: "success"}},
		Blocking: []record.Blocking{{Rule: "gpu-sku-loss", Project: "gpu", Address: "azurerm_kubernetes_cluster_node_pool.gpu", Message: "A100 to D4s", Environment: "prod"}},
		Threads: []record.Thread{
			{ID: "pw-7-1001", ReplyID: 1002, By: "alice", At: fixed, Minimized: true, Plan: &record.PlanThread{Projects: []string{"gpu"},
				Dispatch: record.Dispatch{Workflow: "planwarden-plan.yml", Ref: "feature-7",
					Run: record.ThreadRun{ID: 502, URL: "https://github.com/octo/infra/actions/runs/502", Status: "completed", Conclusion: "success"}}, Verdict: "pass"}},
			{ID: "pw-7-1003", ReplyID: 1004, By: "alice", At: fixed, Destroy: &record.DestroyThread{Environment: "staging",
				Dispatch: record.Dispatch{Workflow: "destroy-staging.yml", Ref: "main"},
				Stage:    "confirmed", ConfirmByOther: true, ConfirmedBy: "bob", ConfirmID: 1005, Resources: []string{`aws_sagemaker_endpoint.main["a b"]`}, More: 3,
				PlanRun: record.ThreadRun{ID: 501}, Declared: []string{"serving"}}},
			{ID: "pw-7-1006", ReplyID: 1007, By: "rita", At: fixed, Note: &record.Note{Command: "refused"}},
		},
		Projects: []port.ProjectStatus{{Name: "gpu", Environment: "prod", Verdict: "fail", RunID: 501, RunURL: "https://github.com/octo/infra/actions/runs/501",
			PlanTime: fixed.Add(-time.Hour), Resources: []string{"azurerm_kubernetes_cluster_node_pool.gpu"}, More: 1}},
	}
}

// timeEqual compares instants, not locations or monotonic readings.
var timeEqual = cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) })
