// Package lockfile reads Terraform's dependency lock file
// (.terraform.lock.hcl, also OpenTofu's) and says which providers a change
// moves to another version: a replacement in the plan of a pull request
// that upgrades a provider can come from the upgrade, not from the code.
//
// The package is pure: it reads the bytes it is given and nothing else.
package lockfile

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// Locks are the provider versions a lock file pins, by source address
// (registry.terraform.io/hashicorp/azurerm).
type Locks map[string]string

// Move is a provider whose locked version differs between two lock files.
type Move struct {
	// Source is the provider's source address; Name its type (azurerm).
	Source, Name string
	// Before and After are the versions ("" when the provider is added or
	// removed).
	Before, After string
}

var lockSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "provider", LabelNames: []string{"source"}}}}

var providerSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "version", Required: true}}}

// Parse reads a lock file named name. Blocks other than provider (a newer
// Terraform's) and attributes other than version are ignored; a provider
// block without a version string, or a file that is not HCL, is an error
// naming the file, the line and what is wrong.
func Parse(name string, data []byte) (Locks, error) {
	f, diags := hclsyntax.ParseConfig(data, name, hcl.InitialPos)
	if diags.HasErrors() {
		return nil, diagError(diags)
	}
	content, _, diags := f.Body.PartialContent(lockSchema)
	if diags.HasErrors() {
		return nil, diagError(diags)
	}
	out := Locks{}
	for _, b := range content.Blocks {
		attrs, _, diags := b.Body.PartialContent(providerSchema)
		if diags.HasErrors() {
			return nil, diagError(diags)
		}
		attr := attrs.Attributes["version"]
		v, diags := attr.Expr.Value(nil)
		if diags.HasErrors() {
			return nil, diagError(diags)
		}
		if v.IsNull() || !v.IsKnown() || v.Type() != cty.String || v.AsString() == "" {
			return nil, fmt.Errorf("%s:%d: provider %q: version must be a version string, as `terraform init` writes it", name, attr.Range.Start.Line, b.Labels[0])
		}
		out[b.Labels[0]] = v.AsString()
	}
	return out, nil
}

func diagError(diags hcl.Diagnostics) error {
	d := diags.Errs()[0].(*hcl.Diagnostic)
	where := ""
	if d.Subject != nil {
		where = fmt.Sprintf("%s:%d: ", d.Subject.Filename, d.Subject.Start.Line)
	}
	msg := d.Summary
	if d.Detail != "" {
		msg += ": " + d.Detail
	}
	return fmt.Errorf("%s%s (a .terraform.lock.hcl as `terraform init` writes it)", where, strings.TrimSuffix(msg, "."))
}

// Moves lists the providers whose locked version differs from base to
// head (added and removed ones too), sorted by source address.
func Moves(base, head Locks) []Move {
	var out []Move
	for src, after := range head {
		if before := base[src]; before != after {
			out = append(out, Move{Source: src, Name: providerName(src), Before: before, After: after})
		}
	}
	for src, before := range base {
		if _, ok := head[src]; !ok {
			out = append(out, Move{Source: src, Name: providerName(src), Before: before})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Source < out[j].Source })
	return out
}

// providerName is the last part of a source address.
func providerName(src string) string {
	if i := strings.LastIndexByte(src, '/'); i >= 0 {
		return src[i+1:]
	}
	return src
}
