package github

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/go-github/v66/github"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/prose"
	"github.com/planwarden/planwarden/record"
)

// The adapter's part for check runs: create (once, even when the answer
// is lost), update, and list by name.

func checkOptions(c port.CheckRun) *github.CheckRunOutput {
	if c.Title == "" && c.Summary == "" {
		return nil
	}
	out := &github.CheckRunOutput{Title: github.String(c.Title), Summary: github.String(c.Summary)}
	if c.Text != "" {
		out.Text = github.String(c.Text)
	}
	for _, a := range c.Annotations {
		out.Annotations = append(out.Annotations, ghAnnotation(a))
	}
	return out
}

func ghAnnotation(a record.Annotation) *github.CheckRunAnnotation {
	end := max(a.EndLine, a.StartLine)
	ga := &github.CheckRunAnnotation{
		Path: github.String(a.Path), StartLine: github.Int(max(a.StartLine, 1)), EndLine: github.Int(max(end, 1)),
		AnnotationLevel: github.String(a.Level), Message: github.String(a.Message),
	}
	if a.Title != "" {
		ga.Title = github.String(a.Title)
	}
	return ga
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func fromCheckRun(cr *github.CheckRun) port.CheckRun {
	out := port.CheckRun{
		ID: cr.GetID(), Name: cr.GetName(), HeadSHA: cr.GetHeadSHA(), Status: cr.GetStatus(),
		Conclusion: cr.GetConclusion(), ExternalID: cr.GetExternalID(), DetailsURL: cr.GetDetailsURL(), HTMLURL: cr.GetHTMLURL(),
	}
	if cr.Output != nil {
		out.Title, out.Summary, out.Text = cr.Output.GetTitle(), cr.Output.GetSummary(), cr.Output.GetText()
	}
	return out
}

func (g *ghAdapter) CreateCheckRun(ctx context.Context, r port.Repo, c port.CheckRun) (port.CheckRun, error) {
	opt := github.CreateCheckRunOptions{
		Name: c.Name, HeadSHA: c.HeadSHA, Status: optional(c.Status), Conclusion: optional(c.Conclusion),
		ExternalID: optional(c.ExternalID), DetailsURL: optional(c.DetailsURL), Output: checkOptions(c),
	}
	if c.Conclusion != "" {
		opt.CompletedAt = &github.Timestamp{Time: c.CompletedAt}
	}
	cr, resp, err := g.c.Checks.CreateCheckRun(ctx, r.Owner, r.Name, opt)
	if err != nil && mayHaveTakenEffect(resp, err) {
		// Not repeated blindly: the first attempt may have made it.
		if runs, lerr := g.ListCheckRunsForRef(ctx, r, c.HeadSHA, c.Name); lerr == nil {
			for _, got := range runs {
				if got.Name == c.Name && got.Title == c.Title && got.Status == optionalValue(c.Status, got.Status) {
					return got, nil
				}
			}
			cr, _, err = g.c.Checks.CreateCheckRun(ctx, r.Owner, r.Name, opt)
		}
	}
	if err != nil {
		return port.CheckRun{}, fmt.Errorf("create check run %s on %s: %w", c.Name, prose.ShortSHA(c.HeadSHA), err)
	}
	return fromCheckRun(cr), nil
}

// mayHaveTakenEffect reports whether a failed POST may still have done
// what it asked: GitHub answered 5xx, or the answer was lost.
func mayHaveTakenEffect(resp *github.Response, err error) bool {
	if resp == nil || resp.Response == nil {
		return !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded)
	}
	return resp.StatusCode >= 500
}

func optionalValue(want, got string) string {
	if want == "" {
		return got
	}
	return want
}

func (g *ghAdapter) UpdateCheckRun(ctx context.Context, r port.Repo, c port.CheckRun) error {
	opt := github.UpdateCheckRunOptions{
		Name: c.Name, Status: optional(c.Status), Conclusion: optional(c.Conclusion),
		ExternalID: optional(c.ExternalID), DetailsURL: optional(c.DetailsURL), Output: checkOptions(c),
	}
	if c.Conclusion != "" {
		opt.CompletedAt = &github.Timestamp{Time: c.CompletedAt}
	}
	if _, _, err := g.c.Checks.UpdateCheckRun(ctx, r.Owner, r.Name, c.ID, opt); err != nil {
		return fmt.Errorf("update check run %d: %w", c.ID, err)
	}
	return nil
}

func (g *ghAdapter) ListCheckRunsForRef(ctx context.Context, r port.Repo, ref, name string) ([]port.CheckRun, error) {
	res, _, err := g.c.Checks.ListCheckRunsForRef(ctx, r.Owner, r.Name, ref, &github.ListCheckRunsOptions{
		CheckName: github.String(name), Filter: github.String("latest"), AppID: github.Int64(g.appID), ListOptions: github.ListOptions{PerPage: 100},
	})
	if err != nil {
		return nil, fmt.Errorf("list check runs for %s: %w", prose.ShortSHA(ref), err)
	}
	var out []port.CheckRun
	for _, cr := range res.CheckRuns {
		out = append(out, fromCheckRun(cr))
	}
	return out, nil
}
