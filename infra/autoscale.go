package infra

import (
	"strconv"
	"strings"

	"github.com/planwarden/planwarden/planparse"
)

// sagemakerDimension is the Application Auto Scaling dimension of a
// SageMaker endpoint variant's instance count.
const sagemakerDimension = "sagemaker:variant:DesiredInstanceCount"

// endpointAutoscaling applies the Application Auto Scaling targets
// (aws_appautoscaling_target) of a SageMaker endpoint's variants to their
// scale: min_capacity and max_capacity bound the fleet, the variant's
// initial count is the expected one (kept within the bounds). A target is
// found by its resource_id ("endpoint/NAME/variant/VARIANT"), in the
// changes or prior_state/planned_values, or, when the id is known only
// after apply, by a configuration reference to the endpoint.
func (a *analysis) endpointAutoscaling(c *planparse.Change, endpoint string, w when, s *Side) {
	prod := 0
	for i := range s.Groups {
		if !s.Groups[i].Shadow {
			prod++
		}
	}
	for i := range s.Groups {
		g := &s.Groups[i]
		if g.Serverless || g.Scale.Unknown {
			continue
		}
		// The variant as a configuration reference names it.
		ref := "production_variants[" + strconv.Itoa(i) + "]"
		if g.Shadow {
			ref = "shadow_production_variants[" + strconv.Itoa(i-prod) + "]"
		}
		t, ok := a.scalingTarget(c, endpoint, g.Name, ref, len(s.Groups) == 1, w)
		if !ok {
			continue
		}
		lo, hi := intAt(t, "min_capacity"), intAt(t, "max_capacity")
		g.Scale = rangeScale(lo, count{n: g.Scale.Expected, known: true}, hi)
	}
}

// scalingTarget finds the target of one variant of an endpoint. A target
// found by its reference to the endpoint is the variant's when its
// resource_id also refers to that variant of the configuration (variantRef,
// production_variants[N]), or, naming no variant, when the endpoint has
// only this one (alone): a target for one variant never scales another.
func (a *analysis) scalingTarget(c *planparse.Change, endpoint, variant, variantRef string, alone bool, w when) (planparse.Value, bool) {
	const typ = "aws_appautoscaling_target"
	isTarget := func(v planparse.Value) bool {
		return strAt(v, "scalable_dimension") == sagemakerDimension && strings.EqualFold(strAt(v, "service_namespace"), "sagemaker")
	}
	if endpoint != "" && variant != "" {
		id := "endpoint/" + endpoint + "/variant/" + variant
		for _, o := range a.changesWith(typ, "resource_id", id) {
			if !existsOn(o, w) {
				continue
			}
			if v := pick(o, w); isTarget(v) {
				return v, true
			}
		}
		if v, ok := a.stateWith(w, typ, "resource_id", id); ok && isTarget(v) {
			return v, true
		}
	}
	// The id is known only after apply (a new endpoint): a target whose
	// resource_id refers to this endpoint, in the same module.
	var found []planparse.Value
	rel := strings.TrimPrefix(c.Address, c.ModuleAddress+".")
	base := planparse.StripInstanceKeys(rel)
	for _, o := range a.changesOfType(typ) {
		if o.ModuleAddress != c.ModuleAddress || !existsOn(o, w) {
			continue
		}
		cr := a.p.ConfigResource(o.Address)
		if cr == nil || cr.Expressions["resource_id"] == nil {
			continue
		}
		refs := cr.Expressions["resource_id"].References
		for _, ref := range refs {
			addr := resourcePart(ref)
			if addr != rel && addr != base {
				continue
			}
			// A reference without the instance key (each.key) is to this
			// instance when the target has its key, or it is the only one.
			if addr == base && base != rel && lastKey(o.Address) != lastKey(c.Address) && len(a.instances(planparse.StripInstanceKeys(c.Address))) > 1 {
				break
			}
			// A known id names its variant (and matched above if it is this one).
			if v := pick(o, w); isTarget(v) && strAt(v, "resource_id") == "" && targetsVariant(refs, variantRef, alone) {
				found = append(found, v)
			}
			break
		}
	}
	// Several targets on one endpoint are per variant: only one is unambiguous.
	if len(found) == 1 {
		return found[0], true
	}
	return planparse.Value{}, false
}

// lastKey is the instance key of an address's resource ("[\"a\"]" of
// module.m.aws_sagemaker_endpoint.e["a"]), "" when it has none.
func lastKey(addr string) string {
	steps := planparse.AddressSteps(addr)
	last := steps[len(steps)-1]
	if i := strings.IndexByte(last, '['); i >= 0 {
		return last[i:]
	}
	return ""
}

// targetsVariant reports whether a target's resource_id references are
// for the variant variantRef names: a reference to an endpoint
// configuration's variant (aws_sagemaker_endpoint_configuration.c.production_variants[1])
// must be that one; with none, the endpoint must have one variant only.
func targetsVariant(refs []string, variantRef string, alone bool) bool {
	named := false
	for _, ref := range refs {
		if !strings.HasPrefix(ref, "aws_sagemaker_endpoint_configuration.") {
			continue
		}
		if steps := planparse.AddressSteps(ref); len(steps) > 2 && strings.Contains(steps[2], "[") {
			if steps[2] == variantRef {
				return true
			}
			named = true
		}
	}
	return !named && alone
}

// existsOn reports whether a change's object exists on side w: a target
// being created does not scale the fleet as it was, one being deleted
// does not scale it as it will be.
func existsOn(o *planparse.Change, w when) bool {
	if w == before {
		return o.Action != planparse.ActionCreate
	}
	return o.Action != planparse.ActionDelete && o.Action != planparse.ActionForget
}
