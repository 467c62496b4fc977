package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/planwarden/planwarden/app/sqlite"
)

func init() {
	commands["jobs"] = command{summary: "list the serve queue's waiting, running and dead jobs; `jobs retry ID` queues a dead one again", run: runJobs}
}

const jobsUsage = `usage: planwarden jobs [--data-dir DIR]
       planwarden jobs [--data-dir DIR] retry ID

Lists the jobs of planwarden serve's queue that are not done: queued
(waiting, or in backoff after a failure), leased (running) and dead (failed
on every attempt, with the last error). retry ID queues a dead job again;
it runs before the later jobs of its pull request.

The data directory is --data-dir, else PLANWARDEN_DATA_DIR, else
./planwarden-data (as for serve). A running serve may share it.
`

func runJobs(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("jobs", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	dir := fs.String("data-dir", dataDirEnv(os.Getenv), "the data directory of planwarden serve")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, jobsUsage) // asked for: standard output, exit 0
			return exitOK
		}
		fmt.Fprintf(stderr, "planwarden jobs: %v\n%s", err, jobsUsage)
		return exitUsage
	}
	rest := fs.Args()
	var retry int64
	switch {
	case len(rest) == 0:
	case rest[0] == "retry" && len(rest) == 2:
		id, err := strconv.ParseInt(rest[1], 10, 64)
		if err != nil || id <= 0 {
			fmt.Fprintf(stderr, "planwarden jobs retry: %q is not a job id: give the ID column of `planwarden jobs`\n", rest[1])
			return exitUsage
		}
		retry = id
	default:
		fmt.Fprintf(stderr, "planwarden jobs: unexpected arguments %q\n%s", strings.Join(rest, " "), jobsUsage)
		return exitUsage
	}
	if _, err := os.Stat(filepath.Join(*dir, sqlite.FileName)); err != nil {
		fmt.Fprintf(stderr, "planwarden jobs: no planwarden database in %s (%v): set PLANWARDEN_DATA_DIR or --data-dir to the directory planwarden serve uses\n", *dir, errors.Unwrap(err))
		return exitUsage
	}
	db, err := sqlite.Open(*dir)
	if err != nil {
		fmt.Fprintf(stderr, "planwarden jobs: %v\n", err)
		return exitUsage
	}
	defer db.Close()
	ctx := context.Background()
	if retry > 0 {
		if err := db.Retry(ctx, retry); err != nil {
			fmt.Fprintf(stderr, "planwarden jobs: %v\n", err)
			return exitUsage
		}
		fmt.Fprintf(stdout, "job %d queued again\n", retry)
		return exitOK
	}
	jobs, err := db.Jobs(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "planwarden jobs: %v\n", err)
		return exitFail
	}
	if len(jobs) == 0 {
		fmt.Fprintln(stdout, "no jobs waiting, running or dead")
		return exitOK
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTATE\tATTEMPTS\tEVENT\tPULL REQUEST\tDELIVERY\tQUEUED\tLAST ERROR")
	for _, j := range jobs {
		state := j.State
		if j.State == sqlite.StateQueued && j.RunAfter.After(time.Now()) {
			state += " (retry " + j.RunAfter.Format(time.RFC3339) + ")"
		}
		fmt.Fprintf(tw, "%d\t%s\t%d\t%s\t%s\t%s\t%s\t%s\n", j.ID, state, j.Attempts, j.Event, j.Group, j.DeliveryID,
			j.CreatedAt.Format(time.RFC3339), oneLine(j.LastError, 160))
	}
	tw.Flush()
	return exitOK
}

// oneLine keeps an error on its table row.
func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > max {
		s = s[:max] + "…"
	}
	return s
}
