package comment

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/planwarden/planwarden/record"
	"github.com/planwarden/planwarden/rules"
)

// Replies to the slash commands. Each command thread (a /plan, or a
// /destroy-staging with its confirmation) has one reply, edited in place
// as the thread moves on; its first line is a hidden ReplyMarker. What a
// user typed (logins, project and environment names) is escaped like plan
// text: as code spans or prose, never as markdown or a mention.

// ReplyMarker is the hidden first line of a command reply:
//
//	<!-- planwarden:reply thread=<id> cmd=<command> -->
//
// Thread is the thread's correlation id (letters, digits and -), Command
// the command without its slash (plan, destroy-staging, help, refused).
type ReplyMarker struct {
	Thread  string
	Command string
}

var replyMarkerRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^<!-- planwarden:reply thread=([A-Za-z0-9-]{1,64}) cmd=([a-z-]{1,32}) -->$`)
})

var threadRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9-]{1,64}$`) })

func (m ReplyMarker) line() string {
	t := m.Thread
	if !threadRE().MatchString(t) {
		t = "none"
	}
	return "<!-- planwarden:reply thread=" + t + " cmd=" + m.Command + " -->"
}

// ParseReplyMarker reads the reply marker from the first line of a comment
// body. As with ParseMarker, anyone can write one: callers must check that
// the comment's author is the App's bot before editing or hiding it.
func ParseReplyMarker(body string) (ReplyMarker, bool) {
	first, _, _ := strings.Cut(body, "\n")
	m := replyMarkerRE().FindStringSubmatch(strings.TrimSuffix(first, "\r"))
	if m == nil {
		return ReplyMarker{}, false
	}
	return ReplyMarker{Thread: m[1], Command: m[2]}, true
}

// Run is a dispatched workflow run as a reply shows it. A zero ID means the
// run has not been seen yet.
type Run struct {
	Workflow string // file name, planwarden-plan.yml
	Ref      string // the branch it was dispatched on
	ID       int64
	URL      string
	// Status is queued, in_progress or completed (GitHub's words);
	// Conclusion is set once it is completed.
	Status, Conclusion string
}

func (r Run) line() string {
	wf := code(r.Workflow) + " on " + code(r.Ref)
	link := "run"
	if r.ID != 0 {
		link = fmt.Sprintf("run %d", r.ID)
		if isHTTPURL(r.URL) {
			link = fmt.Sprintf("[run %d](%s)", r.ID, r.URL)
		}
	}
	switch r.Status {
	case "":
		return "⏳ Dispatched " + wf + "; waiting for GitHub to start the run."
	case "queued", "requested", "waiting", "pending":
		return "⏳ " + capitalize(link) + " of " + wf + " is queued."
	case "in_progress":
		return "🔄 " + capitalize(link) + " of " + wf + " is in progress."
	}
	switch r.Conclusion {
	case "success":
		return "✅ " + capitalize(link) + " of " + wf + " succeeded."
	case "":
		return "❔ " + capitalize(link) + " of " + wf + " completed."
	}
	return "❌ " + capitalize(link) + " of " + wf + " concluded " + code(r.Conclusion) + "."
}

func capitalize(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func isHTTPURL(u string) bool {
	return (strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "http://")) && !strings.ContainsAny(u, " ()<>\n\"'`")
}

// Reply is the reply of a /plan or /destroy-staging thread as the thread
// stands now; "" for a note, whose reply is written once, when it is given.
func Reply(t record.Thread) string {
	run := func(r record.ThreadRun, d record.Dispatch) Run {
		return Run{Workflow: d.Workflow, Ref: d.Ref, ID: r.ID, URL: r.URL, Status: r.Status, Conclusion: r.Conclusion}
	}
	switch {
	case t.Plan != nil:
		p := t.Plan
		return PlanReply{Thread: t.ID, By: t.By, Projects: p.Projects, Run: run(p.Dispatch.Run, p.Dispatch), Verdict: p.Verdict}.Markdown()
	case t.Destroy != nil:
		d := t.Destroy
		return DestroyReply{Thread: t.ID, By: t.By, Environment: d.Environment, Projects: d.Projects,
			Resources: d.Resources, More: d.More, PlanRun: run(d.PlanRun, record.Dispatch{}), Declared: d.Declared, Deadline: t.Deadline(),
			ConfirmByOther: d.ConfirmByOther, Stage: d.Stage, ConfirmedBy: d.ConfirmedBy, Run: run(d.Dispatch.Run, d.Dispatch)}.Markdown()
	}
	return ""
}

// PlanReply is the reply to /plan.
type PlanReply struct {
	Thread string
	By     string
	// Projects are the projects asked for; none means all.
	Projects []string
	Run      Run
	// Verdict is the review's verdict of the run's plans (pass, warn,
	// fail), once planwarden has reviewed them; CheckURL links the check.
	Verdict  string
	CheckURL string
}

// Markdown returns the reply's body.
func (p PlanReply) Markdown() string {
	var b strings.Builder
	b.WriteString(ReplyMarker{Thread: p.Thread, Command: "plan"}.line() + "\n")
	fmt.Fprintf(&b, "**`/plan`** requested by %s for %s.\n\n", code(p.By), projectList(p.Projects))
	b.WriteString(p.Run.line() + "\n")
	if p.Verdict != "" {
		b.WriteString("\n" + verdictLine(p.Verdict, p.CheckURL) + "\n")
	}
	return b.String()
}

func projectList(projects []string) string {
	if len(projects) == 0 {
		return "every project"
	}
	var parts []string
	for _, p := range projects {
		parts = append(parts, code(p))
	}
	if len(parts) == 1 {
		return "project " + parts[0]
	}
	return "projects " + strings.Join(parts, ", ")
}

func verdictLine(verdict, checkURL string) string {
	check := "the `planwarden` check"
	if isHTTPURL(checkURL) {
		check = "the [`planwarden` check](" + checkURL + ")"
	}
	switch verdict {
	case "pass":
		return "Plan reviewed: ✅ **pass**; details in " + check + "."
	case "warn":
		return "Plan reviewed: ⚠️ **warn**; details in " + check + "."
	case "fail":
		return "Plan reviewed: ❌ **fail**; details in " + check + "."
	}
	return "Plan reviewed: " + code(verdict) + "; details in " + check + "."
}

// DestroyReply is the reply to /destroy-staging: first the request for a
// confirmation, then the dispatched destroy and its result.
type DestroyReply struct {
	Thread      string
	By          string
	Environment string
	Projects    []string
	// Resources are what the environment's latest plan manages (its
	// addresses, at most a few dozen; More counts the rest), from the plan
	// of PlanRun. With no plan, Resources is empty and the projects are
	// what is listed.
	Resources []string
	More      int
	PlanRun   Run
	// Declared are the config's projects in the environment, listed when
	// there is no plan and no project was named.
	Declared []string
	// Deadline is when the request lapses; ConfirmByOther says the
	// requester may not confirm it.
	Deadline       time.Time
	ConfirmByOther bool
	Stage          string
	ConfirmedBy    string
	Run            Run
}

// Markdown returns the reply's body.
func (d DestroyReply) Markdown() string {
	var b strings.Builder
	b.WriteString(ReplyMarker{Thread: d.Thread, Command: "destroy-staging"}.line() + "\n")
	fmt.Fprintf(&b, "**`/destroy-staging`** requested by %s: destroy environment %s (%s).\n\n", code(d.By), code(d.Environment), projectList(d.Projects))
	switch {
	case len(d.Resources) > 0:
		from := "the latest plan"
		if d.PlanRun.ID != 0 {
			from = fmt.Sprintf("the latest plan (run %d)", d.PlanRun.ID)
			if isHTTPURL(d.PlanRun.URL) {
				from = fmt.Sprintf("the latest plan ([run %d](%s))", d.PlanRun.ID, d.PlanRun.URL)
			}
		}
		fmt.Fprintf(&b, "What would be destroyed, from %s:\n\n", from)
		for _, r := range d.Resources {
			b.WriteString("- " + code(r) + "\n")
		}
		if d.More > 0 {
			fmt.Fprintf(&b, "- … and %d more\n", d.More)
		}
		b.WriteString("\n")
	default:
		b.WriteString("There is no plan of this environment on this pull request, so planwarden cannot list its resources: everything the projects above manage in it would be destroyed")
		if len(d.Projects) == 0 && len(d.Declared) > 0 {
			b.WriteString(" (the config's projects in " + code(d.Environment) + ": " + strings.TrimPrefix(strings.TrimPrefix(projectList(d.Declared), "projects "), "project ") + ")")
		}
		b.WriteString(".\n\n")
	}
	switch d.Stage {
	case record.DestroyAwaiting:
		who := "Anyone with write access (you included)"
		if d.ConfirmByOther {
			who = "Someone with write access other than " + code(d.By)
		}
		fmt.Fprintf(&b, "%s may confirm with `/destroy-staging confirm` until %s (10 minutes). Nothing happens without it.\n", who, d.Deadline.UTC().Format("15:04 UTC"))
	case record.DestroyExpired:
		fmt.Fprintf(&b, "⌛ Nobody confirmed before %s; nothing was destroyed. Ask again with `/destroy-staging`.\n", d.Deadline.UTC().Format("15:04 UTC"))
	case record.DestroyConfirmed:
		fmt.Fprintf(&b, "Confirmed by %s.\n\n%s\n", code(d.ConfirmedBy), d.Run.line())
	case record.DestroySuperseded:
		b.WriteString("A newer `/destroy-staging` replaced this request; it can no longer be confirmed. Nothing was destroyed.\n")
	}
	return b.String()
}

// Refusal is the reply to a command planwarden will not run. Reason is a
// sentence in which text between backticks is shown as code (user input
// belongs there); the rest is escaped prose.
func Refusal(thread, command, reason string) string {
	return ReplyMarker{Thread: thread, Command: "refused"}.line() + "\n" +
		"🚫 " + code(command) + ": " + prose(reason) + "\n"
}

// Note is a command's reply that answers at once (an /override recorded,
// revoked or listed): its thread's marker, then text, which the caller has
// made safe (every user value as inline code).
func Note(thread, command, text string) string {
	return ReplyMarker{Thread: thread, Command: command}.line() + "\n" + text + "\n"
}

// Help is what `/planwarden help` shows: the commands this repository's
// config allows, and for whom.
type Help struct {
	Thread string
	// ConfigFile is where the config came from ("" for the defaults) and
	// Branch the branch it was read from.
	ConfigFile, Branch string
	PlanWorkflow       string
	Projects           []string
	Destroyable        []HelpEnvironment
	Protected          []string
	Overrides          []HelpOverride
}

// HelpEnvironment is an environment /destroy-staging may destroy.
type HelpEnvironment struct {
	Name, Workflow string
	ConfirmByOther bool
}

// HelpOverride says who may override a rule (or * for every rule).
type HelpOverride struct {
	Rule                        string
	Users, Teams, Labels, Where []string
}

// Markdown returns the help reply's body.
func (h Help) Markdown() string {
	var b strings.Builder
	b.WriteString(ReplyMarker{Thread: h.Thread, Command: "help"}.line() + "\n")
	src := "the built-in defaults (no config on " + code(h.Branch) + ")"
	if h.ConfigFile != "" {
		src = code(h.ConfigFile) + " on " + code(h.Branch)
	}
	fmt.Fprintf(&b, "**planwarden commands** in this repository, from %s:\n\n", src)
	b.WriteString("| command | what it does | who |\n|---|---|---|\n")
	projects := "every project"
	if len(h.Projects) > 0 {
		var cells []string
		for _, p := range h.Projects {
			cells = append(cells, codeCell(p))
		}
		projects = strings.Join(cells, ", ")
	}
	fmt.Fprintf(&b, "| `/plan [project...]` | dispatches %s on the pull request's branch; projects: %s (default: all) | write access |\n", codeCell(h.PlanWorkflow), projects)
	if len(h.Destroyable) == 0 {
		b.WriteString("| `/destroy-staging [environment] [project...]` | turned off: no environment has a `destroy_workflow` | nobody |\n")
	}
	for _, e := range h.Destroyable {
		confirm := "anyone with write access confirms"
		if e.ConfirmByOther {
			confirm = "someone else with write access confirms"
		}
		fmt.Fprintf(&b, "| %s | dispatches %s from the default branch, after `/destroy-staging confirm` within 10 minutes | write access; %s |\n",
			codeCell("/destroy-staging "+e.Name+" [project...]"), codeCell(e.Workflow), confirm)
	}
	if len(h.Overrides) == 0 {
		b.WriteString("| `/override RULE [ADDRESS] -- reason` | lets a blocking finding pass | nobody: the config has no `overrides` |\n")
	}
	for _, o := range h.Overrides {
		var who []string
		for _, u := range o.Users {
			who = append(who, codeCell(u))
		}
		for _, t := range o.Teams {
			who = append(who, "team "+codeCell(t))
		}
		for _, l := range o.Labels {
			who = append(who, "label "+codeCell(l))
		}
		where := ""
		if len(o.Where) > 0 {
			var envs []string
			for _, e := range o.Where {
				envs = append(envs, codeCell(e))
			}
			where = " in " + strings.Join(envs, ", ")
		}
		rule := codeCell(o.Rule)
		if o.Rule == "*" {
			rule = "any rule"
		}
		fmt.Fprintf(&b, "| %s | lets a blocking finding of %s pass%s | %s |\n",
			codeCell("/override "+o.Rule+" [ADDRESS] -- reason"), rule, where, strings.Join(who, ", "))
	}
	b.WriteString("| `/planwarden help` | this table | anyone |\n")
	if len(h.Protected) > 0 {
		var envs []string
		for _, e := range h.Protected {
			envs = append(envs, code(e))
		}
		fmt.Fprintf(&b, "\nProtected environments, which `/destroy-staging` never touches: %s.\n", strings.Join(envs, ", "))
	}
	return b.String()
}

// maxProjectRows bounds the per-project table of the check's summary.
const maxProjectRows = 100

// projectTable is the table per project of the check summary and the
// comment, when the report has more than one and the caller said where
// their plans come from.
func (v *view) projectTable() string {
	if len(v.r.Projects) < 2 || v.opt.ProjectRuns == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n### Projects\n\n| Project | Environment | Verdict | Plan run | Age |\n|---|---|---|---|---|\n")
	for i, p := range v.r.Projects {
		if i == maxProjectRows {
			fmt.Fprintf(&b, "\n_%d more projects are not listed._\n", len(v.r.Projects)-i)
			break
		}
		run := "—"
		if r, ok := v.opt.ProjectRuns[p.Name]; ok && r.ID != 0 {
			run = fmt.Sprintf("run %d", r.ID)
			if isHTTPURL(r.URL) {
				run = fmt.Sprintf("[run %d](%s)", r.ID, r.URL)
			}
		}
		age := "—"
		if t, err := time.Parse(time.RFC3339, p.Timestamp); err == nil && !v.opt.Now.IsZero() {
			age = Age(v.opt.Now.Sub(t))
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", codeCell(p.Name), codeCell(p.Environment), verdictCell(rules.VerdictOf(p.Findings)), run, age)
	}
	return b.String()
}

func verdictCell(v rules.Verdict) string {
	switch v {
	case rules.VerdictPass:
		return "✅ pass"
	case rules.VerdictWarn:
		return "⚠️ warn"
	}
	return "❌ fail"
}

// Age says how old something is, coarsely: "just now", "12 min", "3 h",
// "2 days".
func Age(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%d min", int(d/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf("%d h", int(d/time.Hour))
	}
	return fmt.Sprintf("%d days", int(d/(24*time.Hour)))
}
