package app

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/planwarden/planwarden/app/publish"
	"github.com/planwarden/planwarden/app/worklog"
	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/record"
	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/rules"
	"github.com/planwarden/planwarden/trust"
)

// What the check believes comes from GitHub's facts and the base branch's
// config (package trust decides); this file gathers the facts.

func trustPR(repo Repo, pr PullRequest) trust.PullRequest {
	return trust.PullRequest{Number: pr.Number, Repo: repo.String(), HeadSHA: pr.HeadSHA, Author: pr.Author}
}

func trustRun(run WorkflowRun) record.Run {
	return record.Run{ID: run.ID, Attempt: max(run.Attempt, 1), Path: run.Path, Event: run.Event, HeadSHA: run.HeadSHA,
		HeadRepo: run.HeadRepo, Conclusion: run.Conclusion}
}

// collected is what the review of a commit reads: the plans to review with
// their projects and environments, the provenance findings and notes, and
// the declared projects whose plans may still come.
type collected struct {
	inputs   []review.Input
	findings []rules.Finding
	notes    []string
	waiting  []string
	planTime time.Time        // newest plan timestamp: shown, decides nothing
	runOf    map[string]int64 // the run each project's plan comes from
	assigned trust.Assignment // which plan of which run each project has
	// planBytes is the size of each plan read, for ObserveReview.
	planBytes []int64
	// memory is the worker's memory the plans hold (memoryGate): the
	// parsed plans point into the plan bytes, so it is released when the
	// review is done with them.
	memory *admission
}

// collect reads the plans of the runs (trust.Record's: the newest run of
// each plan workflow and the older runs that may hold a project's newest
// plan), keeps the newest plan of each project, gives each its project and
// environment from cfg, and adds the provenance findings: unknown-project,
// plan-workflow-changed and missing-plan. An older run of a workflow that
// uploaded no plan, or an unreadable one, adds nothing (the newest run of
// its workflow speaks for it); the newest run's fail the check.
//
// The plans hold worker memory (col.memory) until the caller releases it;
// when collect fails, it has released it. What the PR's author must fix
// is a *publish.Final.
func (a *App) collect(ctx context.Context, gh PRReader, repo Repo, pr PullRequest, cfg *rules.Config, runs []record.Run) (collected, error) {
	col, err := a.collectPlans(ctx, gh, repo, pr, cfg, runs)
	if err != nil {
		col.memory.release()
	}
	return col, err
}

func (a *App) collectPlans(ctx context.Context, gh PRReader, repo Repo, pr PullRequest, cfg *rules.Config, runs []record.Run) (collected, error) {
	col := collected{memory: &admission{gate: a.memory}}
	var plans []trust.Plan
	inputs := map[string]*planparse.Plan{} // by artifact/path
	budget := &budget{left: a.cfg.Limits.MaxTotal}
	for _, run := range runs {
		name := fmt.Sprintf("%s (run %d)", run.Path, run.ID)
		if run.Conclusion != "success" {
			return col, publish.Finalf("Plan workflow "+orNone(run.Conclusion),
				"The plan workflow run %s concluded %s, so its plans cannot be reviewed. Fix the run and re-run it; planwarden reviews the plan when it succeeds.",
				name, orNone(run.Conclusion))
		}
		arts, err := gh.ListRunArtifacts(ctx, repo, run.ID)
		if err != nil {
			return col, fmt.Errorf("list the artifacts of %s: %w", name, err)
		}
		arts = planArtifacts(arts)
		older := trust.Superseded(runs, run)
		if len(arts) == 0 && older {
			continue
		}
		if len(arts) == 0 {
			return col, publish.Finalf("No plan artifact",
				"The plan workflow run %s uploaded no artifact whose name starts with `%s`. Upload the `terraform show -json` output as an artifact named `%s-<project>`.",
				name, ArtifactPrefix, ArtifactPrefix)
		}
		if len(arts) > a.cfg.Limits.MaxArtifacts {
			return col, publish.Finalf("Too many plan artifacts",
				"The run %s uploaded %d plan artifacts; planwarden reads at most %d.", name, len(arts), a.cfg.Limits.MaxArtifacts)
		}
		files, err := a.downloadWithin(ctx, gh, repo, arts, budget, col.memory)
		if err != nil {
			return col, err
		}
		for _, f := range files {
			col.planBytes = append(col.planBytes, int64(len(f.Data)))
			p, err := planparse.Parse(f.Name, f.Data)
			if err != nil && older {
				worklog.From(ctx).Info("unreadable plan of an older run skipped", "run", run.ID, "file", f.Name)
				col.notes = append(col.notes, fmt.Sprintf("The plan %s of %s cannot be read; a newer run of its workflow exists, so it is skipped.", f.Name, name))
				continue
			}
			if err != nil {
				return col, &publish.Final{Title: "Unreadable plan", Summary: "planwarden could not read a plan file of " + name + ":\n\n" + codeBlock(err.Error()), Err: err}
			}
			if t, err := time.Parse(time.RFC3339, p.Timestamp); err == nil && t.After(col.planTime) {
				col.planTime = t
			}
			key := fmt.Sprintf("%d/%s", run.ID, f.Name)
			inputs[key] = p
			plans = append(plans, trust.Plan{Run: run, Artifact: f.Artifact, File: strings.TrimPrefix(f.Name, f.Artifact+"/"), Single: f.Single,
				Project: f.Project, Environment: f.Environment})
		}
	}
	as := trust.Assign(cfg, plans)
	col.runOf = map[string]int64{}
	for _, p := range as.Plans {
		col.inputs = append(col.inputs, review.Input{Name: p.Project, Environment: p.Environment,
			Plan: inputs[fmt.Sprintf("%d/%s/%s", p.Run.ID, p.Artifact, p.File)]})
		col.runOf[p.Project] = p.Run.ID
	}
	col.findings, col.notes, col.assigned = as.Findings, append(col.notes, as.Notes...), as

	files, complete, err := gh.ListPRFiles(ctx, repo, pr.Number)
	if err != nil {
		return col, fmt.Errorf("list the files of #%d: %w", pr.Number, err)
	}
	changes := trust.Changes{Files: files, Complete: complete}
	used, err := a.planWorkflowUses(ctx, gh, repo, cfg, pr.BaseRef)
	if err != nil {
		return col, fmt.Errorf("read the plan workflows from %s: %w", pr.BaseRef, err)
	}
	first := ""
	if len(col.inputs) > 0 {
		first = col.inputs[0].Name
	}
	col.findings = append(col.findings, trust.WorkflowChanges(cfg, changes, used, first)...)
	if len(cfg.Projects) > 0 {
		touched, _ := trust.Touched(cfg, changes)
		missing := trust.Missing(cfg, as, touched, runs)
		if trust.Reported(cfg, runs) {
			col.findings = append(col.findings, missing...)
		} else {
			for _, f := range missing {
				col.waiting = append(col.waiting, f.Project)
			}
		}
		// A finding of a project without a plan needs a project to
		// show under.
		for _, f := range col.findings {
			if f.Project != "" && !hasInput(col.inputs, f.Project) {
				pc, _ := cfg.Project(f.Project)
				env := pc.Environment
				if env == "" {
					env = rules.DefaultEnvironmentName
				}
				col.inputs = append(col.inputs, review.Input{Name: f.Project, Environment: env, Plan: &planparse.Plan{File: "(no plan)"}})
			}
		}
	}
	return col, nil
}

func hasInput(inputs []review.Input, name string) bool {
	for _, in := range inputs {
		if in.Name == name {
			return true
		}
	}
	return false
}

// maxUsedFiles bounds how many workflow and action files are read to find
// what the plan workflows use.
const maxUsedFiles = 20

// planWorkflowUses returns the repository files the plan workflows use, as
// the base branch has them: local actions (`uses: ./...`, and what their
// action.yml uses in turn), called reusable workflows, and the scripts
// their run: steps execute (trust.WorkflowUses).
func (a *App) planWorkflowUses(ctx context.Context, gh PRReader, repo Repo, cfg *rules.Config, baseRef string) ([]trust.Used, error) {
	var used []trust.Used
	type file struct{ path, via string }
	queue := []file{}
	for _, wf := range cfg.PlanWorkflowPaths() {
		queue = append(queue, file{wf, ""})
	}
	seen := map[string]bool{}
	for reads := 0; len(queue) > 0 && reads < maxUsedFiles; {
		f := queue[0]
		queue = queue[1:]
		if seen[f.path] {
			continue
		}
		seen[f.path] = true
		candidates := []string{f.path}
		if !strings.HasSuffix(f.path, ".yml") && !strings.HasSuffix(f.path, ".yaml") {
			candidates = []string{path.Join(f.path, "action.yml"), path.Join(f.path, "action.yaml")}
		}
		for _, c := range candidates {
			reads++
			data, err := gh.GetFile(ctx, repo, c, baseRef)
			if errors.Is(err, ErrNotFound) {
				continue
			}
			if err != nil {
				return nil, err
			}
			uses, runs, err := trust.WorkflowUses(data)
			if err != nil {
				worklog.From(ctx).Warn("workflow file is not YAML; its uses are not known", "file", c, "err", err)
				break
			}
			via := "used by " + f.path
			if f.via != "" {
				via += ", " + f.via
			}
			for _, r := range runs {
				used = append(used, trust.Used{Path: r, Via: "run by a step of " + strings.TrimPrefix(via, "used by ")})
			}
			for _, u := range uses {
				kind := "a local action"
				if strings.HasSuffix(u, ".yml") || strings.HasSuffix(u, ".yaml") {
					kind = "a reusable workflow"
				}
				used = append(used, trust.Used{Path: u, Via: kind + " " + via})
				queue = append(queue, file{u, via})
			}
			break
		}
	}
	return used, nil
}
