package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/planwarden/planwarden/infra"
)

// The GCP bulk layer's source: pricing.yml of Cyclenerd's
// google-cloud-pricing-cost-calculator, generated from the Cloud Billing
// Catalog API. Its compute.instance.<type>.cost.<region>.hour is the
// on-demand USD price per hour; `month` is 730 hours of it less any
// sustained-use discount, and the *_spot, month_1y and month_3y prices are
// spot and committed-use ones, none of which planwarden reads.
const (
	gcpSourceRepo = "github:Cyclenerd/google-cloud-pricing-cost-calculator"
	gcpSourceNote = "(from the Cloud Billing Catalog API; 'hour' = on-demand, Linux, no sustained-use or committed-use discount)"
)

// gcpGPUKeys maps the GPU count keys of pricing.yml's machine types to the
// Compute Engine accelerator types infra knows (infra.GCPAccelerator).
var gcpGPUKeys = map[string]string{
	"a100":           "nvidia-tesla-a100",
	"a100-80gb":      "nvidia-a100-80gb",
	"h100-80gb":      "nvidia-h100-80gb",
	"h100":           "nvidia-h100-80gb",
	"h100-80gb-mega": "nvidia-h100-mega-80gb",
	"h200":           "nvidia-h200-141gb",
	"b200":           "nvidia-b200",
	"l4":             "nvidia-l4",
}

// gcpOtherKeys are the machine types' keys that are neither cost, cpu,
// ram nor a GPU count: bundled local SSD GB (a2-ultragpu, a3), priced in
// the machine type's hour.
var gcpOtherKeys = map[string]bool{"local-ssd": true}

// gcpMachine is one machine type of pricing.yml as pricegen keeps it.
type gcpMachine struct {
	name, vcpu, memGiB string
	gpus               int
	gpuType            string
	prices             map[string]string // region -> USD/hour, shortest exact form
}

type gcpStats struct {
	machines, regions, prices int
	// spotOnly counts the regions a machine type has no on-demand price in.
	spotOnly int
	// leftOut names the machine types left out and why.
	leftOut []string
}

// runGCP is `pricegen gcp`: it reads a Cyclenerd pricing.yml and writes
// the GCP bulk layer infra embeds (infra.ParseBulk reads it back).
func runGCP(ymlPath, commit, out string, stdout, stderr io.Writer) int {
	data, err := os.ReadFile(ymlPath)
	if err != nil {
		fmt.Fprintf(stderr, "pricegen gcp: %v\n", err)
		return 1
	}
	observed, machines, st, err := readCyclenerd(ymlPath, data)
	if err != nil {
		fmt.Fprintf(stderr, "pricegen gcp: %v\n", err)
		return 1
	}
	b := encodeGCPBulk(observed, gcpSource(commit, len(machines)), machines, &st)
	if _, err := infra.ParseBulk(b); err != nil {
		fmt.Fprintf(stderr, "pricegen gcp: the written catalog does not parse: %v\n", err)
		return 1
	}
	if err := os.WriteFile(out, b, 0o644); err != nil {
		fmt.Fprintf(stderr, "pricegen: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s: %d GCP machine types in %d regions (%d on-demand prices; %d regions priced as spot only left out), observed %s, %d bytes\n",
		out, st.machines, st.regions, st.prices, st.spotOnly, observed, len(b))
	if len(st.leftOut) > 0 {
		fmt.Fprintf(stdout, "left out %d machine types: %s\n", len(st.leftOut), strings.Join(st.leftOut, "; "))
	}
	return 0
}

func gcpSource(commit string, n int) string {
	at := ""
	if commit != "" {
		if len(commit) > 12 {
			commit = commit[:12]
		}
		at = "@" + commit
	}
	return fmt.Sprintf("%s%s:pricing.yml %s; %d machine types", gcpSourceRepo, at, gcpSourceNote, n)
}

// readCyclenerd reads pricing.yml: its generation time (about.timestamp,
// else about.generated) and every machine type with an on-demand price.
// Errors name the file, line and field.
func readCyclenerd(path string, data []byte) (observed string, machines []gcpMachine, st gcpStats, err error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return "", nil, st, fmt.Errorf("%s: %w", path, err)
	}
	if len(root.Content) == 0 || root.Content[0].Kind != yaml.MappingNode {
		return "", nil, st, fmt.Errorf("%s: not a pricing.yml (no top-level mapping)", path)
	}
	doc := root.Content[0]
	bad := func(n *yaml.Node, field, format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s: "+format, append([]any{path, n.Line, field}, args...)...)
	}
	about := child(doc, "about")
	if about == nil {
		return "", nil, st, fmt.Errorf("%s: no about section (want about.generated or about.timestamp, as Cyclenerd's pricing.yml has)", path)
	}
	if ts := child(about, "timestamp"); ts != nil {
		sec, err := strconv.ParseInt(ts.Value, 10, 64)
		if err != nil {
			return "", nil, st, bad(ts, "about.timestamp", "%q is not Unix seconds", ts.Value)
		}
		observed = time.Unix(sec, 0).UTC().Format(time.RFC3339)
	} else if g := child(about, "generated"); g != nil {
		t, err := time.Parse(time.ANSIC, g.Value)
		if err != nil {
			return "", nil, st, bad(g, "about.generated", "%q is not a date like %q", g.Value, time.ANSIC)
		}
		observed = t.UTC().Format(time.RFC3339)
	} else {
		return "", nil, st, bad(about, "about", "neither timestamp nor generated is given")
	}
	inst := child(child(doc, "compute"), "instance")
	if inst == nil || inst.Kind != yaml.MappingNode {
		return "", nil, st, fmt.Errorf("%s: no compute.instance mapping of machine types", path)
	}
	seen := map[string]bool{}
	regions := map[string]bool{}
	for i := 0; i+1 < len(inst.Content); i += 2 {
		name, mt := inst.Content[i].Value, inst.Content[i+1]
		field := "compute.instance." + name
		if mt.Kind != yaml.MappingNode {
			return "", nil, st, bad(mt, field, "want a mapping of cost, cpu, ram and GPU counts")
		}
		if seen[strings.ToLower(name)] {
			return "", nil, st, bad(inst.Content[i], field, "machine type given twice")
		}
		seen[strings.ToLower(name)] = true
		m := gcpMachine{name: name, prices: map[string]string{}}
		var unknown []string
		for j := 0; j+1 < len(mt.Content); j += 2 {
			k, v := mt.Content[j].Value, mt.Content[j+1]
			switch k {
			case "cost":
				if v.Kind != yaml.MappingNode {
					return "", nil, st, bad(v, field+".cost", "want a mapping of regions")
				}
				for r := 0; r+1 < len(v.Content); r += 2 {
					region, rc := v.Content[r].Value, v.Content[r+1]
					h := child(rc, "hour")
					if h == nil {
						st.spotOnly++
						continue
					}
					p, err := positive(h.Value)
					if err != nil {
						return "", nil, st, bad(h, field+".cost."+region+".hour", "%q is %v", h.Value, err)
					}
					m.prices[region] = p
				}
			case "cpu", "ram":
				x, err := positive(v.Value)
				if err != nil {
					return "", nil, st, bad(v, field+"."+k, "%q is %v", v.Value, err)
				}
				if k == "cpu" {
					m.vcpu = x
				} else {
					m.memGiB = x
				}
			default:
				if gcpOtherKeys[k] {
					continue
				}
				n, err := strconv.Atoi(v.Value)
				if err != nil || n <= 0 {
					return "", nil, st, bad(v, field+"."+k, "%q is not a GPU count", v.Value)
				}
				typ, ok := gcpGPUKeys[k]
				if !ok || m.gpuType != "" {
					unknown = append(unknown, k)
					continue
				}
				m.gpus, m.gpuType = n, typ
			}
		}
		switch {
		case len(unknown) > 0:
			// Never price a GPU machine type as CPU only.
			st.leftOut = append(st.leftOut, name+" (accelerator key "+strings.Join(unknown, ", ")+" not in pricegen's gcpGPUKeys)")
			continue
		case m.vcpu == "" || m.memGiB == "":
			st.leftOut = append(st.leftOut, name+" (no cpu or ram)")
			continue
		case len(m.prices) == 0:
			st.leftOut = append(st.leftOut, name+" (no on-demand price)")
			continue
		}
		for r := range m.prices {
			regions[r] = true
		}
		st.prices += len(m.prices)
		machines = append(machines, m)
	}
	if len(machines) == 0 {
		return "", nil, st, fmt.Errorf("%s: no machine type with an on-demand price", path)
	}
	st.machines, st.regions = len(machines), len(regions)
	return observed, machines, st, nil
}

// child is the value of key in a mapping node (nil: none).
func child(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// encodeGCPBulk writes infra's GCP bulk form: the source, the region list,
// then one G row per machine type (vcpu, memory GiB, GPU count,
// accelerator type, idx=price...), sorted so a refresh reviews as a
// stable diff.
func encodeGCPBulk(observed, source string, machines []gcpMachine, st *gcpStats) []byte {
	regions := map[string]bool{}
	for _, m := range machines {
		for r := range m.prices {
			regions[r] = true
		}
	}
	regList := sortedKeys(regions)
	idx := map[string]int{}
	for i, r := range regList {
		idx[r] = i
	}
	sort.Slice(machines, func(i, j int) bool { return machines[i].name < machines[j].name })
	var b strings.Builder
	b.WriteString("planwarden-bulk\t1\n")
	fmt.Fprintf(&b, "source\t%s\t%s\t%s\n", infra.CloudGCP, observed, source)
	b.WriteString("gcp-regions\t" + strings.Join(regList, "\t") + "\n")
	for _, m := range machines {
		fmt.Fprintf(&b, "G\t%s\t%s\t%s\t%d\t%s", m.name, m.vcpu, m.memGiB, m.gpus, m.gpuType)
		for _, r := range sortedKeys(m.prices) {
			b.WriteString("\t" + strconv.Itoa(idx[r]) + "=" + m.prices[r])
		}
		b.WriteByte('\n')
	}
	return []byte(b.String())
}
