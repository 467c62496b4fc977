package run

import (
	"path"
	"strconv"
	"strings"

	"github.com/planwarden/planwarden/planparse"
)

// terragruntUnits reads Terragrunt's outputs in an artifact: a file of
// `terragrunt run --all -- show -json` output becomes one plan per unit,
// its project the unit's directory (else the file's project#n), and the
// plans of a --json-out-dir tree (dir/tfplan.json) are named by their
// directory unless the metadata names them. Splitting costs nothing on a
// plan file: planparse.MaybeUnits looks at its first line only.
func terragruntUnits(artifact string, plans []planFile, meta *Metadata) []planFile {
	var out []planFile
	for _, p := range plans {
		entry := strings.TrimPrefix(p.Name, artifact+"/")
		named := meta != nil && (meta.Project != "" || meta.Plans[entry].Project != "")
		if b := strings.ToLower(path.Base(entry)); (b == "tfplan.json" || b == "plan.json") && len(plans) > 1 && !named {
			if d := path.Dir(entry); d != "." {
				p.Project = d
			}
		}
		units, ok := []planparse.Unit(nil), false
		if planparse.MaybeUnits(p.Data) {
			units, ok = planparse.SplitUnits(p.Data)
		}
		if !ok {
			out = append(out, p)
			continue
		}
		for i, u := range units {
			up := p
			up.Data = u.Data
			up.Name = p.Name + "#" + strconv.Itoa(i+1)
			up.Project = p.Project + "#" + strconv.Itoa(i+1)
			if u.Dir != "" {
				up.Name, up.Project = p.Name+"#"+u.Dir, u.Dir
			}
			out = append(out, up)
		}
	}
	return out
}
