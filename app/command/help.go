package command

import (
	"context"
	"errors"
	"path"
	"slices"

	"github.com/planwarden/planwarden/app/job"
	"github.com/planwarden/planwarden/app/repoconfig"
	"github.com/planwarden/planwarden/comment"
	"github.com/planwarden/planwarden/record"
)

// /planwarden help: the commands the default branch's config allows, and
// for whom. Anyone may ask.

func (x *Commands) help(ctx context.Context, c command) error {
	if len(c.args) != 1 || c.args[0] != "help" {
		return x.refuse(ctx, c, comment.HelpUsage)
	}
	cfg, branch, err := repoconfig.Command(ctx, c.gh, c.repo)
	var bad *repoconfig.Bad
	if errors.As(err, &bad) {
		return x.refuse(ctx, c, comment.UnusableConfig(bad.File, bad.Ref, bad.Err))
	}
	if err != nil {
		return err
	}
	h := comment.Help{Thread: job.ThreadID(c.job.PR, c.commentID), ConfigFile: cfg.File(), Branch: branch,
		PlanWorkflow: path.Base(cfg.PlanWorkflowPaths()[0])}
	for _, p := range cfg.Projects {
		h.Projects = append(h.Projects, p.Name)
	}
	for _, env := range cfg.EnvironmentNames() {
		if cfg.IsProtected(env) {
			h.Protected = append(h.Protected, env)
		}
		if wf, ok := cfg.DestroyWorkflow(env); ok {
			h.Destroyable = append(h.Destroyable, comment.HelpEnvironment{Name: env, Workflow: wf, ConfirmByOther: cfg.ConfirmByOther(env)})
		}
	}
	rules := make([]string, 0, len(cfg.Overrides))
	for r := range cfg.Overrides {
		rules = append(rules, r)
	}
	slices.Sort(rules)
	for _, r := range rules {
		p := cfg.Overrides[r]
		h.Overrides = append(h.Overrides, comment.HelpOverride{Rule: r, Users: p.Users, Teams: p.Teams, Labels: p.Labels, Where: p.Environments})
	}
	if err := c.gh.React(ctx, c.repo, c.commentID, "eyes"); err != nil {
		return err
	}
	return x.postThread(ctx, c, cfg, record.Thread{ID: h.Thread, By: c.sender, At: x.state.Now(), Note: &record.Note{Command: "help"}}, h.Markdown(), nil)
}
