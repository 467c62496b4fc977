package run

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/planwarden/planwarden/app/port"
	"github.com/planwarden/planwarden/app/worklog"
	"github.com/planwarden/planwarden/planparse/lockfile"
	"github.com/planwarden/planwarden/review"
	"github.com/planwarden/planwarden/rules"
)

// The providers a pull request upgrades, project by project: a
// replacement in a project whose providers the pull request moves can come
// from the upgrade, not from the code, and the comment says so on each.

// lockFileName is Terraform's dependency lock file.
const lockFileName = ".terraform.lock.hcl"

// maxUpgradeReads bounds the files a review reads for provider upgrades
// (two per lock file or Terraform file: its base and its head).
const maxUpgradeReads = 40

// projectDir is the directory of a project's root module, as the pull
// request's file paths name it ("." for the repository's root).
func projectDir(cfg *rules.Config, project string) string {
	p, _ := cfg.Project(project)
	return path.Clean(strings.Trim(p.Directory, "/") + "/.")
}

// providerUpgrades reads, for each directory of the projects whose plans
// the review has, the providers the pull request moves: its lock file at
// the base branch and at the head when the pull request changes it, else
// the version constraints of required_providers in the Terraform files it
// changes there (lockfile.Required). A file that does not parse moves
// nothing (terraform init, not the review, says what is wrong with it).
func providerUpgrades(ctx context.Context, gh port.PRReader, repo port.Repo, baseRef, headSHA string, files []string, dirs []string) (map[string][]review.ProviderUpgrade, error) {
	out := map[string][]review.ProviderUpgrade{}
	reads := 0
	read := func(p string, parse func(string, []byte) (lockfile.Locks, error)) (base, head lockfile.Locks, err error) {
		if reads += 2; reads > maxUpgradeReads {
			return nil, nil, nil
		}
		for _, side := range []struct {
			ref string
			to  *lockfile.Locks
		}{{baseRef, &base}, {headSHA, &head}} {
			data, err := gh.GetFile(ctx, repo, p, side.ref)
			if errors.Is(err, port.ErrNotFound) {
				*side.to = lockfile.Locks{}
				continue
			}
			if err != nil {
				return nil, nil, fmt.Errorf("read %s at %s: %w", p, side.ref, err)
			}
			if *side.to, err = parse(p, data); err != nil {
				worklog.From(ctx).Info("provider versions not read", "file", p, "err", err)
				return nil, nil, nil
			}
		}
		return base, head, nil
	}
	for _, dir := range dirs {
		lock := path.Join(dir, lockFileName)
		var base, head lockfile.Locks
		from := map[string]string{} // provider source -> the file its move was read from
		if slices.Contains(files, lock) {
			b, h, err := read(lock, lockfile.Parse)
			if err != nil {
				return nil, err
			}
			base, head = b, h
		} else {
			base, head = lockfile.Locks{}, lockfile.Locks{}
			for _, f := range files {
				if path.Dir(f) != dir || path.Ext(f) != ".tf" {
					continue
				}
				b, h, err := read(f, lockfile.Required)
				if err != nil {
					return nil, err
				}
				for _, side := range []struct{ from, to lockfile.Locks }{{b, base}, {h, head}} {
					for src, v := range side.from {
						side.to[src] = v
						if _, ok := from[src]; !ok && b[src] != h[src] {
							from[src] = f // the first file that moves it
						}
					}
				}
			}
		}
		for _, m := range lockfile.Moves(base, head) {
			out[dir] = append(out[dir], review.ProviderUpgrade{Provider: m.Source, Name: m.Name, Before: m.Before, After: m.After,
				From: cmp.Or(from[m.Source], lock)})
		}
	}
	return out, nil
}

// planDirs are the directories of the projects the base's plans claim.
func (b *base) planDirs() []string {
	var dirs []string
	for _, c := range b.plans.claims {
		if d := projectDir(b.cfg, c.Project); !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	return dirs
}
