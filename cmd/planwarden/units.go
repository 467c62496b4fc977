package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/planwarden/planwarden/planparse"
)

// Terragrunt: a directory argument is a --json-out-dir tree (every plan
// file under it, each a project named by its path), and a file may hold a
// plan per unit (`terragrunt run --all -- show -json`), each a project
// named by the unit's directory, else by its order.

// maxDirPlans bounds the plan files a directory argument may hold.
const maxDirPlans = 1000

// planArg is one plan file to read: an argument, or a file found under a
// directory argument (arg is the argument's index, name the project).
type planArg struct {
	path string
	arg  int
	name string
}

// expandArgs lists the plan files of the arguments: a directory gives
// every *.json under it (hidden directories and .terragrunt-cache left
// out), in lexical order.
func expandArgs(args []string) ([]planArg, error) {
	var out []planArg
	for i, a := range args {
		st, err := os.Stat(a)
		if a == "-" || err != nil || !st.IsDir() {
			out = append(out, planArg{path: a, arg: i})
			continue
		}
		n := 0
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && p != a && (strings.HasPrefix(d.Name(), ".") || d.Name() == ".terragrunt-cache") {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.EqualFold(filepath.Ext(p), ".json") {
				return nil
			}
			if n++; n > maxDirPlans {
				return fmt.Errorf("more than %d plan files under it; give the units' directories one by one", maxDirPlans)
			}
			rel, _ := filepath.Rel(a, p)
			out = append(out, planArg{path: p, arg: i, name: treeName(rel)})
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", a, err)
		}
		if n == 0 {
			return nil, fmt.Errorf("read %s: no *.json plan file under it (Terragrunt writes them with --json-out-dir)", a)
		}
	}
	return out, nil
}

// treeName names a plan of a --json-out-dir tree by its path: the unit's
// directory for tfplan.json (and plan.json), else the path without .json.
func treeName(rel string) string {
	rel = filepath.ToSlash(rel)
	dir, base := filepath.Split(rel)
	switch strings.ToLower(base) {
	case "tfplan.json", "plan.json":
		if d := strings.TrimSuffix(dir, "/"); d != "" {
			return d
		}
	}
	return strings.TrimSuffix(rel, filepath.Ext(rel))
}

// namedPlan is a plan read from a file, with the project name its unit
// gives it ("" for the file's own name).
type namedPlan struct {
	name string
	plan *planparse.Plan
}

// parsePlans reads a file's plan, or, when the file holds one per
// Terragrunt unit, each unit's: a unit is named by its directory, else
// base#n in the file's order.
func parsePlans(file, base string, data []byte) ([]namedPlan, error) {
	p, err := planparse.Parse(file, data)
	if err == nil {
		return []namedPlan{{plan: p}}, nil
	}
	if !errors.Is(err, planparse.ErrNotJSON) && !errors.Is(err, planparse.ErrNotPlan) {
		return nil, err
	}
	units, ok := planparse.SplitUnits(data)
	if !ok {
		return nil, err
	}
	out := make([]namedPlan, 0, len(units))
	for i, u := range units {
		name, where := u.Dir, u.Dir
		if name == "" {
			name, where = base+"#"+strconv.Itoa(i+1), strconv.Itoa(i+1)
		}
		up, uerr := planparse.Parse(file+"#"+planparse.ShownName(where), u.Data) // where: the run-all output's text
		if uerr != nil {
			return nil, fmt.Errorf("%w (unit %d of %d in a Terragrunt run-all output)", uerr, i+1, len(units))
		}
		out = append(out, namedPlan{name: name, plan: up})
	}
	return out, nil
}
