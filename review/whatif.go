package review

import "github.com/planwarden/planwarden/planparse"

// Skipped is a what-if entry ARM did not evaluate (Ignore or Unsupported),
// reported under a project's skipped with ARM's reason.
type Skipped struct {
	Address    string `json:"address"`
	Type       string `json:"type"`
	ChangeType string `json:"change_type"`
	Reason     string `json:"reason"`
}

func skipped(plan *planparse.Plan) []*Skipped {
	out := make([]*Skipped, 0, len(plan.Skipped))
	for _, s := range plan.Skipped {
		out = append(out, &Skipped{Address: s.Address, Type: s.Type, ChangeType: planparse.ShownName(s.ChangeType), Reason: planparse.ShownProse(s.Reason)})
	}
	return out
}

// ToolTerraform is Project.Tool for a Terraform or OpenTofu plan; an ARM
// what-if result has planparse.ToolWhatIf.
const ToolTerraform = "terraform"
