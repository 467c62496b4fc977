package infra

import "github.com/planwarden/planwarden/planparse"

// Options tune Analyze.
type Options struct {
	// DefaultRegion is used when neither the resource nor its provider says.
	DefaultRegion string
}

// Analyze returns infra's view of every change of a supported type, in plan order.
func Analyze(p *planparse.Plan, cat *Catalog, opt Options) []*Resource { return nil }
