package rules

import (
	"fmt"
	"sort"
	"strings"

	"github.com/planwarden/planwarden/infra"
	"github.com/planwarden/planwarden/planparse"
)

// gpuSKULoss: a compute resource (or a serving endpoint, through its
// configuration) goes from a GPU SKU to a SKU known to have none. A delete is not a loss (stateful-delete and the summary show
// it); an after-SKU that is unknown or not in the catalog is not judged.
type gpuSKULoss struct{}

func (gpuSKULoss) severity(*scope) Severity { return SeverityBlock }

func (gpuSKULoss) check(s *scope) []draft {
	out := s.spare()
	for _, c := range s.changedResources() {
		r := c.r
		if !computeKinds[r.Kind] && r.Kind != infra.KindEndpoint || r.Before == nil {
			continue
		}
		if !r.Before.HasGPU() || !knownNoGPU(r.After) {
			continue
		}
		out = append(out, draft{
			address: r.Address,
			message: fmt.Sprintf("%s loses its GPUs: %s -> %s", subject(r), skuText(r.Before), skuText(r.After)),
			remedy:  gpuLossRemedy(r.Before),
		})
	}
	return out
}

// gpuPoolSKU: a pool or VM that declares itself GPU, by its name, labels,
// taints or tags, gets a SKU known to have no GPU.
type gpuPoolSKU struct{}

func (gpuPoolSKU) severity(*scope) Severity { return SeverityBlock }

func (gpuPoolSKU) check(s *scope) []draft {
	out := s.spare()
	for _, c := range s.changedResources() {
		r := c.r
		if !computeKinds[r.Kind] || r.Kind == infra.KindEndpointConfig {
			continue
		}
		if !knownNoGPU(r.After) {
			continue
		}
		why, ok := gpuIntent(r)
		if !ok {
			continue
		}
		remedy := "Give it a GPU SKU"
		if r.Before != nil && r.Before.HasGPU() {
			remedy += fmt.Sprintf(" (it was %s)", shownSKU(r.Before))
		}
		remedy += "; if it is meant to be a CPU " + kindNoun(r.Kind) + ", drop the GPU name, labels, taints and tags so GPU workloads are not scheduled onto it."
		out = append(out, draft{
			address: r.Address,
			message: fmt.Sprintf("%s declares itself GPU (%s) but gets %s, %s", subject(r), why, shownSKU(r.After), noneHas(r.After)),
			remedy:  remedy,
		})
	}
	return out
}

// gpuWords mark a name, label, taint or tag as meant for GPUs.
var gpuWords = []string{"gpu", "nvidia", "cuda", "a100", "h100", "h200", "v100"}

func mentionsGPU(s string) bool {
	s = strings.ToLower(s)
	for _, w := range gpuWords {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// ownershipKeys are tag and label keys that say who owns or pays for a
// resource; a team called gpu-platform does not make a pool a GPU pool.
var ownershipKeys = map[string]bool{
	"team": true, "owner": true, "cost-center": true, "costcenter": true, "cost_center": true, "project": true,
	"department": true, "contact": true, "created-by": true, "managed-by": true, "managed_by": true,
	"repo": true, "repository": true, "env": true, "environment": true, "app": true, "service": true,
}

func falsy(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "false", "no", "none", "0", "off", "disabled":
		return true
	}
	return false
}

// gpuIntent says why a resource's after side declares itself GPU: its
// name, labels (hardware=gpu, nvidia.com/gpu=true, accelerator=...), node
// image (AL2_x86_64_GPU), taints (sku=gpu:NoSchedule) and tags whose key names a GPU or whose
// value has a GPU word, up to three of them. Ownership tags and labels
// (team, owner, cost-center, ...) are not read.
func gpuIntent(r *infra.Resource) (string, bool) {
	a := r.After
	var why []string
	if n := displayName(r); mentionsGPU(n) {
		why = append(why, "name "+planparse.ShownName(n))
	}
	// Only the keys that match are sorted: most resources have none.
	labels, tags := a.Labels(), a.Tags()
	for _, k := range matchingKeys(labels, func(k, v string) bool {
		lk := strings.ToLower(k)
		if ownershipKeys[lk] || falsy(v) && v != "" {
			return false
		}
		return mentionsGPU(k) || mentionsGPU(v) || strings.Contains(lk, "accelerator") && v != ""
	}) {
		why = append(why, "label "+planparse.ShownName(k+"="+labels[k]))
	}
	if mentionsGPU(a.ImageType) {
		why = append(why, "image "+planparse.ShownName(a.ImageType))
	}
	taints := append([]string(nil), a.Taints...)
	sort.Strings(taints)
	for _, t := range taints {
		if mentionsGPU(t) {
			why = append(why, "taint "+planparse.ShownName(t))
		}
	}
	for _, k := range matchingKeys(tags, func(k, v string) bool {
		lk := strings.ToLower(k)
		if ownershipKeys[lk] {
			return false
		}
		return (mentionsGPU(k) || strings.Contains(lk, "accelerator")) && !falsy(v) || hasGPUWord(v)
	}) {
		why = append(why, "tag "+planparse.ShownName(k+"="+tags[k]))
	}
	if len(why) > 3 {
		why = why[:3]
	}
	return strings.Join(why, ", "), len(why) > 0
}

// matchingKeys are the keys of m whose entry matches, sorted.
func matchingKeys(m map[string]string, match func(k, v string) bool) []string {
	var keys []string
	for k, v := range m {
		if match(k, v) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

// hasGPUWord reports whether v, lower-cased and split at every character
// that is not a-z or 0-9, has the word gpu, nvidia or cuda.
func hasGPUWord(v string) bool {
	v = strings.ToLower(v)
	start := -1
	for i := 0; i <= len(v); i++ {
		if i < len(v) && (v[i] >= 'a' && v[i] <= 'z' || v[i] >= '0' && v[i] <= '9') {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			switch v[start:i] {
			case "gpu", "nvidia", "cuda":
				return true
			}
			start = -1
		}
	}
	return false
}

// gpuPoolTaint: a GPU node pool without a NoSchedule (or NoExecute) taint
// lets any pod take its GPU nodes. GKE taints GPU pools itself, so GKE
// pools are not checked.
type gpuPoolTaint struct{}

func (gpuPoolTaint) severity(*scope) Severity { return SeverityWarn }

func (gpuPoolTaint) check(s *scope) []draft {
	out := s.spare()
	for _, c := range s.changedResources() {
		r := c.r
		if !c.gpu || r.Kind != infra.KindNodePool {
			continue
		}
		if r.Type == "google_container_node_pool" || r.Type == "google_container_cluster" {
			continue
		}
		if hasNoSchedule(r.After.Taints) {
			continue
		}
		out = append(out, draft{
			address: r.Address,
			message: fmt.Sprintf("GPU %s on %s has no NoSchedule taint, so any pod can be scheduled onto its GPU nodes", subject(r), skuText(r.After)),
			remedy:  "Add a taint such as sku=gpu:NoSchedule to the pool, and a matching toleration to the GPU workloads.",
		})
	}
	return out
}

func hasNoSchedule(taints []string) bool {
	for _, t := range taints {
		i := strings.LastIndex(t, ":")
		effect := strings.ToLower(strings.ReplaceAll(t[i+1:], "_", ""))
		if effect == "noschedule" || effect == "noexecute" {
			return true
		}
	}
	return false
}

// requiredTags: a GPU resource being created or changed lacks a required
// tag (GCP resources may carry it as a label).
type requiredTags struct{}

func (requiredTags) severity(*scope) Severity { return SeverityBlock }

func (requiredTags) check(s *scope) []draft {
	required := s.cfg.requiredTags()
	if len(required) == 0 {
		return nil
	}
	out := s.spare()
	var msg sentence
	var lastTags, lastRemedy string // most findings lack the same tags: one remedy
	for _, c := range s.changedResources() {
		// What bills through another resource (an endpoint configuration,
		// through its endpoint) is attributed there.
		if !c.gpu || c.billed {
			continue
		}
		r := c.r
		var missing []string
		for _, t := range required {
			if strings.TrimSpace(r.After.Tag(t)) != "" {
				continue
			}
			if strings.HasPrefix(r.Type, "google_") && strings.TrimSpace(r.After.Label(t)) != "" {
				continue
			}
			missing = append(missing, t)
		}
		if len(missing) == 0 {
			continue
		}
		verb := "is created"
		if s.action(r) != planparse.ActionCreate {
			verb = "changes"
		}
		quoted := make([]string, len(missing))
		for i, m := range missing {
			quoted[i] = code(m)
		}
		tags := strings.Join(quoted, ", ")
		if tags != lastTags {
			lastTags, lastRemedy = tags, "Add "+tags+" to its tags (or the module's default tags) so its GPU spend is attributed."
		}
		msg = msg[:0]
		msg.add("GPU ")
		msg.subject(r)
		msg.add(" on ")
		msg.sku(r.After)
		msg.add(" ", verb, " without the required ", tags, " ", plural(len(missing), "tag", "tags"))
		out = append(out, draft{address: r.Address, message: s.texts.keep(msg), remedy: lastRemedy})
	}
	return out
}

// gpuLossRemedy says how to get the GPUs back, without pointing at a SKU
// its vendor has retired.
func gpuLossRemedy(before *infra.Side) string {
	back := "set the SKU back to " + shownSKU(before) + " or another GPU SKU"
	if k := primary(before); k.Retired {
		back = fmt.Sprintf("choose a current GPU SKU (%s was retired%s, so going back to it is not an option)", shownSKU(before), retiredOn(k))
	}
	return "If GPU workloads still run there, " + back + "; if dropping the GPUs is intended, move those workloads first and say so in the pull request."
}

func retiredOn(k infra.SKU) string {
	if k.RetiredOn == "" {
		return ""
	}
	return " on " + k.RetiredOn
}

// retiredSKU: a SKU the vendor has retired may still have a price, but new
// capacity on it is not deployable and existing capacity is deallocated.
type retiredSKU struct{}

func (retiredSKU) severity(*scope) Severity { return SeverityWarn }

func (retiredSKU) check(s *scope) []draft {
	out := s.spare()
	var msg sentence
	for _, c := range s.changedResources() {
		r := c.r
		for gi := range r.After.Groups {
			g := &r.After.Groups[gi]
			if !g.SKU.Retired || (r.Before != nil && sameSKUGroup(r.Before, g)) {
				continue // keeping a retired SKU is reported by no rule: nothing in this PR changed it
			}
			msg = msg[:0]
			msg.subject(r)
			msg.add(" gets ")
			msg.code(planparse.ShownName(g.SKU.Name))
			msg.add(", which its vendor retired", retiredOn(g.SKU), ": new capacity on it cannot be deployed")
			out = append(out, draft{
				address: r.Address,
				message: s.texts.keep(msg),
				remedy:  "Pick a current SKU with the same accelerators; docs/pricing.md lists the catalog.",
			})
		}
	}
	return out
}

func sameSKUGroup(before *infra.Side, g *infra.Group) bool {
	for gi := range before.Groups {
		b := &before.Groups[gi]
		if b.Name == g.Name && b.SKU.Name == g.SKU.Name {
			return true
		}
	}
	return false
}

// noneHas says that the side's SKU has no GPU, or, for a list of them (a
// Karpenter NodePool's instance families), that neither or none has one.
func noneHas(s *infra.Side) string {
	switch strings.Count(skuName(s), ", ") {
	case 0:
		return "which has no GPU"
	case 1:
		return "neither of which has a GPU"
	}
	return "none of which has a GPU"
}
