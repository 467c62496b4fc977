package rules

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/planwarden/planwarden/infra"
	"github.com/planwarden/planwarden/planparse"
)

// gpuCapacityGap: GPU capacity is deleted before its replacement exists.
// A GPU pool or node group replaced delete-first (Terraform's default
// order) is gone from its delete until the new one's nodes are ready; a GPU
// pool deleted while another is created in the same plan may go first too,
// since Terraform orders unrelated deletes and creates in parallel. Blocks
// in protected environments, warns elsewhere. A create-before-destroy
// replace, a plain delete with nothing created to replace it, or a
// replacement without GPUs (gpu-sku-loss's case) is no gap.
type gpuCapacityGap struct{}

// poolKinds are the fleets whose replacement leaves a gap in GPU capacity.
var poolKinds = map[infra.Kind]bool{infra.KindNodePool: true, infra.KindScaleSet: true, infra.KindComputeCluster: true}

func (gpuCapacityGap) severity(s *scope) Severity {
	if s.strict() {
		return SeverityBlock
	}
	return SeverityWarn
}

func (gpuCapacityGap) check(s *scope) []draft {
	var gone, created []*infra.Resource
	for _, r := range s.resources {
		if !poolKinds[r.Kind] {
			continue
		}
		switch a := s.action(r); {
		// A replacement without GPUs is a GPU loss (gpu-sku-loss), not a gap.
		case a == planparse.ActionReplace && r.ReplaceOrder != planparse.CreateThenDelete && r.Before.GPUs(false) > 0 && r.After.GPUs(true) > 0:
			gone = append(gone, r)
		case a == planparse.ActionDelete && r.Before.GPUs(false) > 0:
			gone = append(gone, r)
		case a == planparse.ActionCreate && (r.After.GPUs(false) > 0 || r.After.GPUs(true) > 0):
			created = append(created, r)
		}
	}
	out := s.spare()
	var msg sentence
	left := ""                          // the GPUs left while the gone ones are away: the same for each, said once
	creating := ""                      // what the plan creates meanwhile: the same for each deletion, said once
	remedies := map[infra.Kind]string{} // the same for each pool of a kind
	for _, r := range gone {
		msg = msg[:0]
		replaced := s.action(r) == planparse.ActionReplace
		if replaced {
			msg.subject(r)
			msg.add(" is replaced delete-first (")
			msg.forcedByResource(s, r)
			msg.add(")")
		} else {
			if len(created) == 0 {
				continue // a plain removal: nothing is meant to replace it
			}
			if creating == "" {
				creating = createdPools(created)
			}
			msg.subject(r)
			msg.add(" is deleted while ", creating, " in the same plan, and Terraform does not order the two")
		}
		msg.add(": its ")
		msg.fleet(r.Before)
		msg.add(" go away from the delete until the new ")
		if replaced {
			msg.add(kindNoun(r.Kind))
		} else {
			msg.add("capacity")
		}
		msg.add("'s nodes are ready")
		if left == "" {
			if n := s.gpusLeft(gone); n == 0 {
				left = ", and the plan leaves no other GPUs running meanwhile"
			} else {
				left = " (" + count(n) + " other GPUs keep running)"
			}
		}
		msg.add(left)
		remedy, ok := remedies[r.Kind]
		if !ok {
			remedy = "Create the new capacity first: give the " + kindNoun(r.Kind) + " `create_before_destroy` (with a new name or name_prefix, since names must be unique), " +
				"or add the new pool in one apply and delete the old one in a later one, after its workloads have moved."
			remedies[r.Kind] = remedy
		}
		if s.unnamed {
			remedy += unnamedRemedy
		}
		out = append(out, draft{address: r.Address, message: s.texts.keep(msg), remedy: remedy})
	}
	return out
}

// maxNamedPools is how many created pools a gpu-capacity-gap finding
// names; more are counted. Every deletion's finding says the same, so a
// plan that swaps hundreds of pools would otherwise repeat every name in
// every finding (its size the square of the plan's).
const maxNamedPools = 3

// createdPools says which GPU pools a plan creates: "node pool `a100` is
// created", "node pool `a` and node pool `b` is created", or past
// maxNamedPools "5 GPU pools are created (node pool `a`, node pool `b`,
// node pool `c` and 2 more)".
func createdPools(created []*infra.Resource) string {
	var names []string
	for _, c := range created[:min(len(created), maxNamedPools)] {
		names = append(names, subject(c))
	}
	if len(created) <= maxNamedPools {
		return strings.Join(names, " and ") + " is created"
	}
	return fmt.Sprintf("%d GPU pools are created (%s and %d more)", len(created), strings.Join(names, ", "), len(created)-maxNamedPools)
}

// fleet adds what GPUs a side runs at its expected scale: "8 A10G GPUs
// (2 x g5.12xlarge)".
func (t *sentence) fleet(s *infra.Side) {
	n := s.GPUs(false)
	nodes := 0
	if len(s.Groups) > 0 {
		nodes = s.Groups[0].Scale.Expected
	}
	noun := "GPUs"
	if n == 1 {
		noun = "GPU"
	}
	var buf [64]byte
	g := sentence(buf[:0])
	g.gpu(s)
	chip := bytes.TrimSuffix(bytes.TrimPrefix(g, []byte("1 x ")), []byte(" attached"))
	if _, after, ok := bytes.Cut(chip, []byte(" x ")); ok {
		chip = after
	}
	*t = strconv.AppendFloat(*t, n, 'f', -1, 64)
	*t = append(append(*t, ' '), chip...)
	t.add(" ", noun, " (")
	*t = strconv.AppendInt(*t, int64(nodes), 10)
	t.add(" x ", shownSKU(s), ")")
}

// gpusLeft counts the GPUs (expected scale, before the apply) of the
// project's resources that keep running while the gone ones are away.
func (s *scope) gpusLeft(gone []*infra.Resource) float64 {
	var n float64
	isGone := make(map[*infra.Resource]bool, len(gone))
	for _, g := range gone {
		isGone[g] = true
	}
	for _, r := range s.resources {
		if r.Before == nil || r.Cost.BilledVia != "" || !computeKinds[r.Kind] && r.Kind != infra.KindEndpoint {
			continue
		}
		if a := s.action(r); isGone[r] || a == planparse.ActionDelete || a == planparse.ActionReplace && r.ReplaceOrder != planparse.CreateThenDelete {
			continue
		}
		n += r.Before.GPUs(false)
	}
	return n
}

// forcedByResource adds what forces a resource's replacement, from its
// change.
func (t *sentence) forcedByResource(s *scope, r *infra.Resource) {
	ch := s.replacement(r)
	if ch == nil {
		ch = s.changeOf(r)
	}
	if ch != nil {
		t.forcedBy(ch)
		return
	}
	t.add(noForcingAttribute)
}
