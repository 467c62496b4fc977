package infra

import (
	"strings"

	"github.com/planwarden/planwarden/planparse"
)

// providerRegion is the constant region (or zone's region) of the change's provider block.
func (a *analysis) providerRegion(c *planparse.Change) string {
	// Both sides of a change ask in turn; finding the provider block
	// allocates (the address without instance keys).
	if c == a.regionOf {
		return a.regionWas
	}
	reg := a.providerRegionOf(c)
	a.regionOf, a.regionWas = c, reg
	return reg
}

func (a *analysis) providerRegionOf(c *planparse.Change) string {
	pc := a.p.ProviderConfigFor(c)
	if pc == nil {
		return ""
	}
	if reg, ok := a.provider[pc]; ok {
		return reg
	}
	reg := a.exprString(pc, "region")
	if reg == "" {
		reg = zoneRegion(a.exprString(pc, "zone"))
	}
	reg = NormalizeRegion(reg)
	a.provider[pc] = reg
	return reg
}

// exprString is the string a provider block gives the argument key: a
// constant, or, in the root module's block, a root variable named alone
// (region = var.region), read from the values the plan was made with. A
// variable in a module's block is the module's, which the plan does not
// hold; any other expression is unknown here.
func (a *analysis) exprString(pc *planparse.ProviderConfig, key string) string {
	e := pc.Expressions[key]
	if e == nil {
		return ""
	}
	if e.HasConstant {
		s, _ := e.Constant.Str()
		return s
	}
	if name, ok := strings.CutPrefix(singleRef(e.References), "var."); ok && pc.ModuleAddress == "" && !strings.ContainsAny(name, ".[") {
		s, _ := a.p.Variable(name).Str()
		return s
	}
	return ""
}

// singleRef is the one reference of an expression, or "".
func singleRef(refs []string) string {
	if len(refs) != 1 {
		return ""
	}
	return refs[0]
}

// zoneRegion turns a GCP zone (us-central1-a) into its region; a region
// stays as it is. A zone written as a resource path or URL
// (projects/p/zones/us-central1-a) is read by its last segment.
func zoneRegion(z string) string {
	if i := strings.LastIndexByte(z, '/'); i >= 0 {
		z = z[i+1:]
	}
	if i := strings.LastIndexByte(z, '-'); i > 0 && len(z)-i == 2 && z[i+1] >= 'a' && z[i+1] <= 'z' {
		return z[:i]
	}
	return z
}
