// Command pricegen builds infra/catalog.json, the SKU catalog compiled
// into planwarden: it imports a curated price table (CSV) and refreshes
// prices from the Azure Retail Prices API and the AWS Price List bulk
// offer files, merging into the existing catalog so GPU facts are kept.
// It also writes the bulk layers under it: every Azure VM and EC2 type
// (bulk) and Compute Engine machine types from a Cyclenerd pricing.yml
// (gcp).
//
// Usage:
//
//	pricegen import -csv PRICES.csv [-catalog infra/catalog.json] [-fresh] [-out FILE]
//	pricegen azure  -regions eastus,westeurope [-all] [-catalog ...] [-out FILE]
//	pricegen aws    -regions us-east-1 [-services AmazonEC2,AmazonSageMaker] [-all] [-catalog ...] [-out FILE]
//	pricegen bulk   -dir ../shared/data/catalog [-out infra/catalog_bulk.tsv]
//	pricegen gcp    -yml pricing.yml [-commit SHA] [-out infra/catalog_bulk_gcp.tsv]
//
// See docs/pricing.md.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/planwarden/planwarden/infra"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr, http.DefaultClient))
}

const usage = `usage:
  pricegen import -csv PRICES.csv [-catalog infra/catalog.json] [-fresh] [-out FILE]
  pricegen azure  -regions eastus,westeurope [-all] [-catalog infra/catalog.json] [-out FILE]
  pricegen aws    -regions us-east-1 [-services AmazonEC2,AmazonSageMaker] [-all] [-catalog infra/catalog.json] [-out FILE]
  pricegen bulk   -dir ../shared/data/catalog [-out infra/catalog_bulk.tsv]
  pricegen gcp    -yml pricing.yml [-commit SHA] [-out infra/catalog_bulk_gcp.tsv]
import, azure and aws merge into -catalog (prices replaced per SKU and region, GPU facts kept)
and writes -out (default: the -catalog file); bulk writes the compact bulk catalog
(every Azure VM price, every EC2 type) from the bulk snapshots; gcp writes the GCP machine
types' on-demand prices per region from Cyclenerd's google-cloud-pricing-cost-calculator
pricing.yml (-commit: the commit it was downloaded at, recorded as its source). See docs/pricing.md.
`

// run is main without the process: it returns the exit code (0 ok, 1
// failure, 2 bad usage).
func run(ctx context.Context, args []string, stdout, stderr io.Writer, client *http.Client) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stderr, usage)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	mode := args[0]
	if mode != "import" && mode != "azure" && mode != "aws" && mode != "bulk" && mode != "gcp" {
		fmt.Fprintf(stderr, "pricegen: unknown mode %q\n%s", mode, usage)
		return 2
	}
	fs := flag.NewFlagSet("pricegen "+mode, flag.ContinueOnError)
	fs.SetOutput(stderr)
	catalog := fs.String("catalog", "infra/catalog.json", "catalog to merge into")
	out := fs.String("out", "", "file to write (default: -catalog)")
	fresh := fs.Bool("fresh", false, "start from an empty catalog instead of -catalog")
	all := fs.Bool("all", false, "add every SKU seen, not only accelerated ones (existing rows are always refreshed)")
	generated := fs.String("generated", "", "generation time to record, RFC 3339 (default: now)")
	csvPath := fs.String("csv", "", "import: the curated price table")
	regions := fs.String("regions", "", "azure/aws: comma-separated regions")
	services := fs.String("services", "AmazonEC2,AmazonSageMaker", "aws: offer codes to read")
	baseURL := fs.String("url", "", "override the API base URL (tests, mirrors)")
	pageSize := fs.Int("page-size", 100, "azure: the API's page size, for the $skip fallback")
	maxPages := fs.Int("max-pages", 2000, "azure: at most this many pages per region")
	dir := fs.String("dir", "", "bulk: the directory of the bulk snapshots (azure-vm-prices.csv, aws-ec2.csv)")
	yml := fs.String("yml", "", "gcp: a Cyclenerd google-cloud-pricing-cost-calculator pricing.yml")
	commit := fs.String("commit", "", "gcp: the commit pricing.yml was taken at (recorded in the price source)")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "pricegen %s: unexpected argument %q\n%s", mode, fs.Arg(0), usage)
		return 2
	}
	if mode == "bulk" {
		if *dir == "" {
			fmt.Fprintf(stderr, "pricegen bulk: -dir is required\n%s", usage)
			return 2
		}
		if *out == "" {
			*out = "infra/catalog_bulk.tsv"
		}
		return runBulk(*dir, *out, stdout, stderr)
	}
	if mode == "gcp" {
		if *yml == "" {
			fmt.Fprintf(stderr, "pricegen gcp: -yml is required\n%s", usage)
			return 2
		}
		if *out == "" {
			*out = "infra/catalog_bulk_gcp.tsv"
		}
		return runGCP(*yml, *commit, *out, stdout, stderr)
	}
	now := time.Now().UTC()
	if *generated != "" {
		t, err := time.Parse(time.RFC3339, *generated)
		if err != nil {
			fmt.Fprintf(stderr, "pricegen: -generated %q: %v\n", *generated, err)
			return 2
		}
		now = t.UTC()
	}
	if *out == "" {
		*out = *catalog
	}
	base := infra.CatalogFile{Format: infra.CatalogFormat}
	if !*fresh {
		b, err := os.ReadFile(*catalog)
		switch {
		case errors.Is(err, os.ErrNotExist) && mode == "import":
		case err != nil:
			fmt.Fprintf(stderr, "pricegen: read catalog: %v (use -fresh to start empty)\n", err)
			return 1
		default:
			c, err := infra.ParseCatalog(b)
			if err != nil {
				fmt.Fprintf(stderr, "pricegen: %s: %v\n", *catalog, err)
				return 1
			}
			base = c.File()
		}
	}

	var obs []observation
	var step string
	switch mode {
	case "import":
		if *csvPath == "" {
			fmt.Fprintf(stderr, "pricegen import: -csv is required\n%s", usage)
			return 2
		}
		f, err := os.Open(*csvPath)
		if err != nil {
			fmt.Fprintf(stderr, "pricegen: %v\n", err)
			return 1
		}
		obs, err = readCSV(*csvPath, f)
		f.Close()
		if err != nil {
			fmt.Fprintf(stderr, "pricegen: %v\n", err)
			return 1
		}
		step = "import " + baseName(*csvPath)
	case "azure", "aws":
		rs := splitList(*regions)
		if len(rs) == 0 {
			fmt.Fprintf(stderr, "pricegen %s: -regions is required\n%s", mode, usage)
			return 2
		}
		for _, r := range rs {
			var got []observation
			var err error
			if mode == "azure" {
				u := AzurePricesURL
				if *baseURL != "" {
					u = *baseURL
				}
				a := &azureFetcher{URL: u, Client: client, PageSize: *pageSize, MaxPages: *maxPages, Now: now}
				got, err = a.fetch(ctx, r)
			} else {
				u := AWSPricingURL
				if *baseURL != "" {
					u = strings.TrimSuffix(*baseURL, "/")
				}
				a := &awsFetcher{URL: u, Client: client}
				for _, s := range splitList(*services) {
					var g []observation
					if g, err = a.fetch(ctx, s, r); err != nil {
						break
					}
					got = append(got, g...)
				}
			}
			if err != nil {
				fmt.Fprintf(stderr, "pricegen: %v\n", err)
				return 1
			}
			fmt.Fprintf(stderr, "pricegen %s %s: %d prices\n", mode, r, len(got))
			obs = append(obs, got...)
		}
		step = mode + " " + strings.Join(rs, ",")
		if mode == "aws" {
			step += " (" + strings.Join(splitList(*services), ",") + ")"
		}
	default:
		fmt.Fprintf(stderr, "pricegen: unknown mode %q\n%s", mode, usage)
		return 2
	}

	merged, st := merge(base, obs, mergeOptions{All: *all})
	if mode == "import" {
		// The curated disk prices are the generator's own table.
		disks, err := readDisks("cmd/pricegen/data/disk-prices.csv", strings.NewReader(diskTable))
		if err != nil {
			fmt.Fprintf(stderr, "pricegen: %v\n", err)
			return 1
		}
		merged.Disks = disks
	}
	merged.Generated = now
	merged.Note = appendNote(base.Note, now.Format("2006-01-02")+" "+step)
	if _, err := infra.NewCatalog(merged); err != nil {
		fmt.Fprintf(stderr, "pricegen: merged catalog is invalid: %v\n", err)
		return 1
	}
	b, err := encode(merged)
	if err != nil {
		fmt.Fprintf(stderr, "pricegen: encode: %v\n", err)
		return 1
	}
	if err := os.WriteFile(*out, b, 0o644); err != nil {
		fmt.Fprintf(stderr, "pricegen: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s: %d SKUs (%d price observations: %d updated, %d added, %d skipped)\n",
		*out, len(merged.SKUs), len(obs), st.Updated, st.Added, st.Skipped)
	if len(st.NeedRule) > 0 {
		fmt.Fprintf(stdout, "left out, accelerated but no family rule in infra/family.go: %s\n", strings.Join(st.NeedRule, ", "))
	}
	return 0
}

// encode writes the catalog indented, one field per line and in sorted
// order, so that a refresh reviews as a readable diff.
func encode(f infra.CatalogFile) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", " ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(f); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func appendNote(old, step string) string {
	var lines []string
	for _, l := range strings.Split(old, "; ") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	lines = append(lines, step)
	if len(lines) > 20 {
		lines = lines[len(lines)-20:]
	}
	return strings.Join(lines, "; ")
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func baseName(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}
