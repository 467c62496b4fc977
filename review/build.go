package review

import (
	"github.com/planwarden/planwarden/infra"
	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/rules"
)

// Input is one plan to review.
type Input struct {
	// Name is the project name; Environment its environment ("" lets the
	// config decide, else "default").
	Name        string
	Environment string
	Plan        *planparse.Plan
}

// Options configure Build. Zero values mean the defaults.
type Options struct {
	Config    *rules.Config
	Catalog   *infra.Catalog
	Overrides []rules.Override
	// DefaultRegion applies when a resource and its provider name no region.
	DefaultRegion string
}

// Build reviews the inputs, in order, into one Report.
func Build(inputs []Input, opt Options) *Report {
	return &Report{}
}
