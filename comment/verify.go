package comment

import (
	"strconv"
	"strings"

	pwprose "github.com/planwarden/planwarden/prose"
	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/rules"
)

// VerifySource says where the reviewed change sets came from, for the
// heading of the verify report.
type VerifySource struct {
	// Report is the JSON report's file (offline verify); PR, HeadSHA and
	// CheckURL the pull request merged into the commit and its check run
	// (online verify).
	Report   string
	PR       int
	HeadSHA  string
	CheckURL string
	// Conclusion is the check run's conclusion (online verify).
	Conclusion string
}

// Verify renders what `planwarden verify` found, as markdown (the job
// summary; the terminal gets it through package plaintext): one line per
// project saying whether it may be applied, then a table of every change
// that differs from the review, and the differences a tolerance let pass.
func Verify(checks []review.ProjectCheck, src VerifySource) string {
	var b strings.Builder
	ok := len(checks) > 0
	for _, c := range checks {
		ok = ok && c.OK()
	}
	if ok {
		b.WriteString("## ✅ planwarden verify: the plan is what was reviewed\n\n")
	} else {
		b.WriteString("## ❌ planwarden verify: the plan is not what was reviewed\n\n")
	}
	b.WriteString(verifySource(src))
	if len(checks) == 0 {
		b.WriteString("No plan was given.\n")
	}
	for _, c := range checks {
		b.WriteString(verifyProject(c))
	}
	return b.String()
}

func verifySource(src VerifySource) string {
	switch {
	case src.Report != "":
		return "Compared with the reviewed report " + code(src.Report) + ".\n\n"
	case src.PR > 0:
		s := "Compared with the review of pull request #" + strconv.Itoa(src.PR)
		if src.HeadSHA != "" {
			s += " at " + code(pwprose.ShortSHA(src.HeadSHA))
		}
		if u := safeURL(src.CheckURL); u != "" {
			s += " ([check run](" + u + "))"
		}
		return s + ".\n\n"
	}
	return ""
}

func verifyProject(c review.ProjectCheck) string {
	var b strings.Builder
	name := code(c.Project)
	switch {
	case !c.Reviewed:
		b.WriteString("- ❌ " + name + ": **not reviewed**: the review has no project of this name, so none of its changes was reviewed. Name the plan as the pull request's plan workflow named it (`--project`).\n")
	case c.Verdict == rules.VerdictFail:
		b.WriteString("- ❌ " + name + ": **the review failed** (a blocking finding that is not overridden): a failed review is no approval.\n")
	case c.Verdict == "":
		b.WriteString("- ❌ " + name + ": **the review has no verdict** for this project, so it approves nothing.\n")
	}
	if c.Incomplete {
		b.WriteString("- ❌ " + name + ": **the plan is incomplete** (it failed part way, or deferred changes): it is not the whole apply.\n")
	}
	if !c.Reviewed {
		return b.String()
	}
	if c.DigestOnly {
		if c.ReviewedDigest == c.PlannedDigest {
			b.WriteString("- ✅ " + name + ": the change set's digest is the reviewed one (" + code(c.PlannedDigest) + ").\n")
		} else {
			b.WriteString("- ❌ " + name + ": **the change set differs** from the reviewed one (digest " + code(c.PlannedDigest) + ", reviewed " +
				code(c.ReviewedDigest) + "). The check run kept only the digest (too many changes to list), so the differing changes cannot be named; compare with the reviewed JSON report (`--reviewed`) to see them.\n")
		}
		return b.String()
	}
	switch {
	case len(c.Differences) > 0:
		b.WriteString("- ❌ " + name + ": **" + plural(len(c.Differences), "change differs", "changes differ") + " from the review**:\n\n")
		b.WriteString(differenceTable(c.Differences))
	case c.OK():
		b.WriteString("- ✅ " + name + ": every change is the reviewed one (change set " + code(c.PlannedDigest) + ").\n")
	}
	if len(c.Tolerated) > 0 {
		b.WriteString("\n" + plural(len(c.Tolerated), "difference", "differences") + " of " + name + " let pass by a tolerance flag:\n\n")
		b.WriteString(differenceTable(c.Tolerated))
	}
	return b.String()
}

func differenceTable(ds []review.Difference) string {
	var b strings.Builder
	b.WriteString("| change | reviewed | planned | what differs |\n|---|---|---|---|\n")
	for _, d := range ds {
		b.WriteString("| " + codeCell(d.Key) + " | " + idCell(d.Reviewed) + " | " + idCell(d.Planned) + " | " + whatDiffers(d) + " |\n")
	}
	return b.String() + "\n"
}

// idCell is a change's action, SKU and count as the table shows it.
func idCell(id *review.ChangeID) string {
	if id == nil {
		return "—"
	}
	parts := []string{text(id.Action)}
	if id.SKUBefore != "" || id.SKUAfter != "" {
		parts = append(parts, codeCell(beforeAfter(orDash(id.SKUBefore), orDash(id.SKUAfter))))
	}
	if id.CountBefore != nil || id.CountAfter != nil {
		parts = append(parts, "count "+beforeAfter(countText(id.CountBefore), countText(id.CountAfter)))
	}
	return strings.Join(parts, ", ")
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func countText(n *int) string {
	if n == nil {
		return "?"
	}
	return strconv.Itoa(*n)
}

func whatDiffers(d review.Difference) string {
	var s string
	switch {
	case d.Reviewed == nil:
		s = "not reviewed: the plan has it, the review did not"
	case d.Planned == nil:
		s = "not planned: the review had it, the plan does not"
	default:
		words := make([]string, len(d.Parts))
		for i, p := range d.Parts {
			words[i] = partWord(p)
		}
		s = strings.Join(words, ", ")
	}
	if d.Tolerated != "" {
		s += " (let pass: " + d.Tolerated + ")"
	}
	return s
}

func partWord(p review.Part) string {
	switch p {
	case review.PartAction:
		return "action"
	case review.PartMove:
		return "moved from another address"
	case review.PartImport:
		return "import"
	case review.PartSKU:
		return "SKU"
	case review.PartCount:
		return "instance count"
	case review.PartAttribute:
		return "attribute values (diff digest)"
	}
	return text(string(p))
}

// VerifyRefusal is why verify found no review that approves the plan.
type VerifyRefusal string

// The refusals of online verify.
const (
	// RefusedNoPullRequest: no merged pull request made the commit.
	RefusedNoPullRequest VerifyRefusal = "no-pull-request"
	// RefusedNoCheckRun: the pull request's head has no planwarden check
	// run of the App.
	RefusedNoCheckRun VerifyRefusal = "no-check-run"
	// RefusedCheckNotCompleted: the check run never completed.
	RefusedCheckNotCompleted VerifyRefusal = "check-not-completed"
	// RefusedCheckFailed: the check run did not pass (success or neutral).
	RefusedCheckFailed VerifyRefusal = "check-failed"
	// RefusedNoRecord: the check run holds no record of the reviewed change sets.
	RefusedNoRecord VerifyRefusal = "no-record"
)

// VerifyRefused renders why verify found no approving review, as markdown.
func VerifyRefused(why VerifyRefusal, commit string, src VerifySource) string {
	s := "## ❌ planwarden verify: no review approves this plan\n\n"
	switch why {
	case RefusedNoPullRequest:
		s += "No merged pull request made commit " + code(pwprose.ShortSHA(commit)) + " (a direct push, or a merge GitHub does not associate with a pull request), so no review of its plan exists. Apply from a commit a reviewed pull request's merge made.\n"
	case RefusedNoCheckRun:
		s += verifySource(src) + "Its head has no `planwarden` check run of the planwarden App: the plan was never reviewed (or `--app-id` names another App).\n"
	case RefusedCheckNotCompleted:
		s += verifySource(src) + "Its `planwarden` check run never completed: the review did not finish, so it approves nothing.\n"
	case RefusedCheckFailed:
		s += verifySource(src) + "Its `planwarden` check run concluded " + code(src.Conclusion) + ": only a passing review (success, or neutral for warnings; overrides counted) approves a plan.\n"
	case RefusedNoRecord:
		s += verifySource(src) + "Its `planwarden` check run holds no record of the reviewed change sets (a planwarden App older than `planwarden verify`, or a review made without digests): ask for the review again (re-run the check) and merge after it.\n"
	default:
		s += text(string(why)) + "\n"
	}
	return s
}
