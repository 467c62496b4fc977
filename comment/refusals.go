package comment

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	pw "github.com/planwarden/planwarden/prose"
	"github.com/planwarden/planwarden/rules"
)

// Why a slash command does not run: the reason a Refusal gives after the
// command's name, a sentence in which text between backticks shows as
// code (every name a user gave is quoted that way). What to refuse is the
// caller's (app/command) to decide.

// NeedsWrite refuses a command of sender, who has only perm on repo.
func NeedsWrite(repo, sender, perm string) string {
	return fmt.Sprintf("needs write access to %s; %s has %s.", quote(repo), quote(sender), quote(perm))
}

// RevokeNeedsWrite refuses `/override --revoke` of sender, who has only
// perm on repo.
func RevokeNeedsWrite(repo, sender, perm string) string {
	return fmt.Sprintf("`--revoke` needs write access to %s; %s has %s.", quote(repo), quote(sender), quote(perm))
}

// OpenOnly refuses a command on pull request pr, which is state.
func OpenOnly(pr int, state string) string {
	return fmt.Sprintf("works on open pull requests only; #%d is %s.", pr, state)
}

// ForkBranch refuses to dispatch for a pull request whose branch is in
// headRepo, a fork.
func ForkBranch(headRepo string) string {
	return fmt.Sprintf("cannot run for a fork's branch (%s): the App dispatches workflows of this repository only.", quote(headRepo))
}

// UnusableConfig refuses every command while the config file on ref cannot
// be used, err saying why.
func UnusableConfig(file, ref string, err error) string {
	return fmt.Sprintf("the config %s on %s cannot be used, so no command runs until it is fixed (`planwarden validate` shows the same): %s",
		quote(file), quote(ref), strings.Join(strings.Fields(err.Error()), " "))
}

// HelpUsage refuses `/planwarden` with anything but help.
const HelpUsage = "knows one subcommand: `/planwarden help`."

// NotAProjectName refuses a project name a workflow input may not carry.
func NotAProjectName(name string) string {
	return fmt.Sprintf("%s is not a project name: expected letters, digits, ., _, / or -.", quote(name))
}

// UnknownProject refuses a project name not among known; suggestion, when
// set, is the known name it is closest to.
func UnknownProject(name string, known []string, suggestion string) string {
	msg := fmt.Sprintf("unknown project %s; expected one of %s", quote(name), quoteList(known))
	if suggestion != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", quote(suggestion))
	}
	return msg + "."
}

// TooManyProjects refuses a command that names n projects, more than max.
func TooManyProjects(n, max int) string {
	return fmt.Sprintf("names %d projects; at most %d at once.", n, max)
}

// DispatchFailed says the workflow wf could not be dispatched on ref with
// inputs (their names).
func DispatchFailed(wf, ref string, inputs []string) string {
	return fmt.Sprintf("could not dispatch %s on %s. Check that the workflow exists on that branch, has a workflow_dispatch trigger and declares the inputs %s.",
		quote(wf), quote(ref), quote(strings.Join(inputs, ", ")))
}

// ReplanTitle is the title of the checks a /plan by sender puts back in
// progress.
func ReplanTitle(sender string) string { return "Re-planning requested by @" + sender }

// ReplanSummary is the `planwarden` check's summary after sender's /plan
// dispatched workflow wf on ref for projects (none: every project).
func ReplanSummary(sender, wf, ref string, projects []string) string {
	return fmt.Sprintf("%s by %s dispatched %s on %s for %s. This check completes when planwarden has reviewed the new plan.",
		"`/plan`", quote(sender), quote(wf), quote(ref), projectsText(projects))
}

// ProjectReplanSummary is a project's check's summary after sender's /plan
// dispatched a new plan of it.
func ProjectReplanSummary(sender, project string) string {
	return "`/plan` by " + quote(sender) + " dispatched a new plan of " + quote(project) + "."
}

func projectsText(projects []string) string {
	if len(projects) == 0 {
		return "every project"
	}
	return quoteList(projects)
}

// ProjectElsewhere refuses a destroy of env that names project, which
// deploys to projectEnv.
func ProjectElsewhere(project, projectEnv, env string) string {
	return fmt.Sprintf("project %s deploys to %s, not %s; %s destroys one environment at a time.", quote(project), quote(projectEnv), quote(env), "`/destroy-staging`")
}

// UnknownEnvironment refuses a destroy of arg, which is no environment of
// envs (nor a project, when projects are declared); suggestion, when set,
// is the environment it is closest to.
func UnknownEnvironment(arg string, envs []string, projectsDeclared bool, suggestion string) string {
	msg := fmt.Sprintf("refuses the environment %s: it is not an environment of this repository (%s)", quote(arg), quoteList(envs))
	if projectsDeclared {
		msg = fmt.Sprintf("%s is neither an environment (%s) nor a project of this repository", quote(arg), quoteList(envs))
	}
	if suggestion != "" {
		msg += fmt.Sprintf("; did you mean %s?", quote(suggestion))
	}
	return msg + "."
}

// ProtectedEnvironment refuses to destroy env, a protected environment.
func ProtectedEnvironment(env string) string {
	return fmt.Sprintf("refuses the environment %s: it is protected, and a protected environment is never destroyed.", quote(env))
}

// NoDestroyWorkflow refuses to destroy env, to which the config on branch
// gives no destroy_workflow.
func NoDestroyWorkflow(env, branch string) string {
	return fmt.Sprintf("refuses the environment %s: the config on %s gives it no `destroy_workflow`, so it may not be destroyed.", quote(env), quote(branch))
}

// NothingToConfirm refuses a confirmation no destroy request waits for.
const NothingToConfirm = "there is no `/destroy-staging` on this pull request waiting for a confirmation. Ask first with `/destroy-staging [environment] [project...]`."

// Lapsed refuses the confirmation of by's destroy request, which lapsed at
// deadline.
func Lapsed(by string, deadline time.Time) string {
	return fmt.Sprintf("the request of %s lapsed at %s (confirmations are taken for 10 minutes); nothing was destroyed. Ask again with `/destroy-staging`.",
		quote(by), deadline.UTC().Format("15:04 UTC"))
}

// ConfirmByOther refuses by's confirmation of their own request for env,
// which the config on branch wants someone else to confirm.
func ConfirmByOther(by, branch, env string) string {
	return fmt.Sprintf("someone other than %s must confirm: the config on %s says `confirm_by: other` for %s.", quote(by), quote(branch), quote(env))
}

// DestroyWorkflowChanged refuses a confirmation when env's destroy
// workflow is wf now, not the one of the request.
func DestroyWorkflowChanged(env, wf string) string {
	return fmt.Sprintf("the destroy workflow of %s changed since the request (now %s); ask again with `/destroy-staging`.", quote(env), quote(wf))
}

// configFile is where cfg came from, else where a config would be.
func configFile(cfg *rules.Config) string {
	if cfg.File() != "" {
		return cfg.File()
	}
	return rules.ConfigPath
}

// Who may override a rule, in words: the users, the teams, the labels.
func who(users, teams, labels []string) string {
	var parts []string
	switch len(users) {
	case 0:
	case 1:
		parts = append(parts, "the user "+quoteList(users))
	default:
		parts = append(parts, "the users "+quoteList(users))
	}
	if len(teams) > 0 {
		parts = append(parts, "members of "+quoteList(teams))
	}
	if len(labels) > 0 {
		parts = append(parts, "the pull request label "+quoteList(labels))
	}
	if len(parts) == 0 {
		return "no one may override it"
	}
	return strings.Join(parts, ", or ")
}

// overriders says who may override rule in env under cfg.
func overriders(cfg *rules.Config, rule, env string) string {
	users, teams, labels := cfg.Overriders(rule, env)
	return who(users, teams, labels)
}

// policyList is what the config says of overrides, when there is no
// review to list.
func policyList(cfg *rules.Config) string {
	if len(cfg.Overrides) == 0 {
		return fmt.Sprintf("%s names no one who may override a blocking finding (key `overrides`).", quote(configFile(cfg)))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Who may override, per %s:\n\n", quote(configFile(cfg)))
	for _, rule := range slices.Sorted(maps.Keys(cfg.Overrides)) {
		p := cfg.Overrides[rule]
		fmt.Fprintf(&b, "- %s: %s", quote(rule), who(p.Users, p.Teams, p.Labels))
		if len(p.Environments) > 0 {
			fmt.Fprintf(&b, " (in %s)", quoteList(p.Environments))
		}
		b.WriteString("\n")
	}
	return b.String()
}

func shortSHA(sha string) string { return pw.ShortSHA(sha) }
