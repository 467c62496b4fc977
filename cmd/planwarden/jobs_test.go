package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/app/sqlite"
)

func TestJobsCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db, err := sqlite.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Enqueue(context.Background(), job.Job{DeliveryID: "d-queued", Event: "pull_request", Owner: "o", Repo: "r", PR: 4}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	tests := map[string]struct {
		args       []string
		wantCode   int
		wantOut    string
		wantStderr string
	}{
		"lists the queue":                 {args: []string{"--data-dir", dir}, wantOut: "queued"},
		"names the pull request":          {args: []string{"--data-dir", dir}, wantOut: "o/r#4"},
		"no database there":               {args: []string{"--data-dir", t.TempDir()}, wantCode: exitUsage, wantStderr: "no planwarden database in"},
		"retry needs a number":            {args: []string{"--data-dir", dir, "retry", "abc"}, wantCode: exitUsage, wantStderr: `"abc" is not a job id`},
		"retry of a job that is not dead": {args: []string{"--data-dir", dir, "retry", "1"}, wantCode: exitUsage, wantStderr: "job is not dead"},
		"retry of an unknown job":         {args: []string{"--data-dir", dir, "retry", "99"}, wantCode: exitUsage, wantStderr: "no such job"},
		"unknown words":                   {args: []string{"--data-dir", dir, "purge"}, wantCode: exitUsage, wantStderr: `unexpected arguments "purge"`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run(append([]string{"jobs"}, tc.args...), nil, &out, &errb)
			if code != tc.wantCode {
				t.Errorf("exit %d, want %d (stderr %q)", code, tc.wantCode, errb.String())
			}
			if !strings.Contains(out.String(), tc.wantOut) {
				t.Errorf("stdout %q, want it to contain %q", out.String(), tc.wantOut)
			}
			if !strings.Contains(errb.String(), tc.wantStderr) {
				t.Errorf("stderr %q, want it to contain %q", errb.String(), tc.wantStderr)
			}
		})
	}
}
