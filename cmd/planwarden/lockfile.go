package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/planwarden/planwarden/planparse/lockfile"
	"github.com/planwarden/planwarden/review"
)

// lockFlags are review's --lockfile-base and --lockfile: the Nth applies
// to the Nth plan; a single --lockfile-base applies to all.
type lockFlags struct{ base, head listFlag }

// check says what is wrong with how the flags pair with the plan files.
func (l *lockFlags) check(plans int) error {
	switch {
	case len(l.base) > 1 && len(l.base) != plans:
		return fmt.Errorf("give one --lockfile-base for all plans or one per plan (%d plans, %d base lock files)", plans, len(l.base))
	case len(l.head) > plans:
		return fmt.Errorf("%d --lockfile files for %d plan files", len(l.head), plans)
	case len(l.head) > 0 && len(l.base) == 0:
		return errors.New("--lockfile needs --lockfile-base: the base branch's lock file to compare it with")
	}
	return nil
}

// upgrades are the providers plan i's project moves: its head lock file
// (--lockfile, else .terraform.lock.hcl beside the plan file) against the
// base one. Without --lockfile-base there are none.
func (l *lockFlags) upgrades(i int, plan string) ([]review.ProviderUpgrade, error) {
	if len(l.base) == 0 {
		return nil, nil
	}
	basePath := l.base[0]
	if len(l.base) > 1 {
		basePath = l.base[i]
	}
	headPath := filepath.Join(filepath.Dir(plan), ".terraform.lock.hcl")
	if i < len(l.head) {
		headPath = l.head[i]
	}
	base, err := readLocks("--lockfile-base", basePath)
	if err != nil {
		return nil, err
	}
	head, err := readLocks("--lockfile", headPath)
	if err != nil {
		return nil, err
	}
	var out []review.ProviderUpgrade
	for _, m := range lockfile.Moves(base, head) {
		out = append(out, review.ProviderUpgrade{Provider: m.Source, Name: m.Name, Before: m.Before, After: m.After})
	}
	return out, nil
}

func readLocks(flagName, path string) (lockfile.Locks, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %v (give the lock file with %s FILE)", flagName, path, errors.Unwrap(err), flagName)
	}
	return lockfile.Parse(path, data)
}
