package infra

import (
	"strconv"
	"strings"
)

// Cloud names used in SKU.Cloud and catalog rows.
const (
	CloudAzure     = "azure"
	CloudAWS       = "aws"
	CloudSageMaker = "aws-sagemaker"
	CloudGCP       = "gcp"
)

// gpu is one accelerator model as the family rules know it.
type gpu struct {
	model string      // as catalog rows name it
	chip  string      // short name a catalog row's model must contain
	mem   float64     // nominal GiB per accelerator
	kind  Accelerator // NVIDIA unless set
}

func (g gpu) sku(cloud, name, family string, count float64) SKU {
	kind := g.kind
	if kind == "" {
		kind = AcceleratorNVIDIA
	}
	return SKU{Cloud: cloud, Name: name, Family: family, GPUCount: count, GPUModel: g.model,
		GPUMemoryGiB: round4(g.mem * count), Accelerator: kind, Known: true, FromFamily: true}
}

// FamilyFacts returns what a SKU's name alone says about it: its family
// and, for accelerated families, the accelerator model, count and memory.
// ok is false when no family rule knows the name; a known CPU-only family
// returns ok with no accelerator. The result has Known and FromFamily set.
// Names are matched case-insensitively. Family rules never give prices.
func FamilyFacts(cloud, name string) (SKU, bool) {
	switch cloud {
	case CloudAzure:
		return azureFamily(name)
	case CloudAWS, CloudSageMaker:
		return awsFamily(cloud, name)
	case CloudGCP:
		return gcpFamily(name)
	}
	return SKU{}, false
}

// Retirements the family rules know, by lower-case SKU name.
var retired = map[string]string{
	// MicrosoftDocs ncv3-nc6s-nc12s-nc24s-retirement.md. NC24rs_v3 was not checked.
	"standard_nc6s_v3":  "2025-09-30",
	"standard_nc12s_v3": "2025-09-30",
	"standard_nc24s_v3": "2025-09-30",
}

// RetiredOn returns the date the vendor retired a SKU, or "".
func RetiredOn(cloud, name string) string {
	if cloud != CloudAzure {
		return ""
	}
	return retired[strings.ToLower(name)]
}

var (
	gV100_16  = gpu{model: "NVIDIA Tesla V100 16GB", chip: "V100", mem: 16}
	gV100_32  = gpu{model: "NVIDIA Tesla V100 32GB", chip: "V100", mem: 32}
	gP100     = gpu{model: "NVIDIA Tesla P100 16GB", chip: "P100", mem: 16}
	gP40      = gpu{model: "NVIDIA Tesla P40 24GB", chip: "P40", mem: 24}
	gK80      = gpu{model: "NVIDIA Tesla K80 12GB", chip: "K80", mem: 12}
	gM60      = gpu{model: "NVIDIA Tesla M60 8GB", chip: "M60", mem: 8}
	gT4       = gpu{model: "NVIDIA Tesla T4 16GB", chip: "T4", mem: 16}
	gA100_40  = gpu{model: "NVIDIA A100 40GB", chip: "A100", mem: 40}
	gA100_80  = gpu{model: "NVIDIA A100 80GB", chip: "A100 80GB", mem: 80}
	gA100_80P = gpu{model: "NVIDIA A100 80GB PCIe", chip: "A100 80GB", mem: 80}
	gH100     = gpu{model: "NVIDIA H100 80GB", chip: "H100", mem: 80}
	gH100NVL  = gpu{model: "NVIDIA H100 NVL 94GB PCIe", chip: "H100", mem: 94}
	gH200     = gpu{model: "NVIDIA H200 141GB", chip: "H200", mem: 141}
	gB200     = gpu{model: "NVIDIA B200 180GB", chip: "B200", mem: 180}
	gA10      = gpu{model: "NVIDIA A10 24GB", chip: "A10", mem: 24}
	gA10G     = gpu{model: "NVIDIA A10G 24GB", chip: "A10G", mem: 24}
	gL4       = gpu{model: "NVIDIA L4 24GB", chip: "L4", mem: 24}
	gL40S     = gpu{model: "NVIDIA L40S 48GB", chip: "L40S", mem: 48}
	gT4G      = gpu{model: "NVIDIA T4G 16GB", chip: "T4G", mem: 16}
	gMI25     = gpu{model: "AMD Radeon Instinct MI25 16GB", chip: "MI25", mem: 16, kind: AcceleratorAMD}
	gMI300X   = gpu{model: "AMD Instinct MI300X 192GB", chip: "MI300X", mem: 192, kind: AcceleratorAMD}
	gV520     = gpu{model: "AMD Radeon Pro V520 8GB", chip: "V520", mem: 8, kind: AcceleratorAMD}
	gInf1     = gpu{model: "AWS Inferentia (accelerator chips)", chip: "Inferentia", mem: 8, kind: AcceleratorInferentia}
	gInf2     = gpu{model: "AWS Inferentia2 (accelerator chips)", chip: "Inferentia2", mem: 32, kind: AcceleratorInferentia}
	gTrn1     = gpu{model: "AWS Trainium (accelerator chips)", chip: "Trainium", mem: 32, kind: AcceleratorTrainium}
	gTrn2     = gpu{model: "AWS Trainium2 (accelerator chips)", chip: "Trainium", mem: 96, kind: AcceleratorTrainium}
)

// azureName splits an Azure VM size: Standard_NC24ads_A100_v4 is series
// NC, 24 vCPUs, features "ads", accelerator A100, version 4.
type azureName struct {
	series, features, accel string
	vcpu, version           int
	family                  string
}

func parseAzure(name string) (azureName, bool) {
	parts := strings.Split(name, "_")
	if len(parts) < 2 || !(strings.EqualFold(parts[0], "standard") || strings.EqualFold(parts[0], "basic")) {
		return azureName{}, false
	}
	rest := parts[2:]
	if n := len(rest); n > 0 && strings.EqualFold(rest[n-1], "promo") {
		rest = rest[:n-1]
	}
	var a azureName
	if n := len(rest); n > 0 {
		last := strings.ToLower(rest[n-1])
		if len(last) > 1 && last[0] == 'v' {
			if v, err := strconv.Atoi(last[1:]); err == nil {
				a.version = v
				rest = rest[:n-1]
			}
		}
	}
	switch len(rest) {
	case 0:
	case 1:
		a.accel = strings.ToUpper(rest[0])
	default:
		return azureName{}, false
	}
	core := parts[1]
	i := 0
	for i < len(core) && isLetter(core[i]) {
		i++
	}
	j := i
	for j < len(core) && core[j] >= '0' && core[j] <= '9' {
		j++
	}
	if i == 0 || j == i {
		return azureName{}, false
	}
	a.series = strings.ToUpper(core[:i])
	a.vcpu, _ = strconv.Atoi(core[i:j])
	feat := core[j:]
	if k := strings.IndexByte(feat, '-'); k == 0 { // constrained vCPU: E64-32s_v5
		k = 1
		for k < len(feat) && feat[k] >= '0' && feat[k] <= '9' {
			k++
		}
		feat = feat[k:]
	}
	for k := 0; k < len(feat); k++ {
		if !isLetter(feat[k]) {
			return azureName{}, false
		}
	}
	a.features = strings.ToLower(feat)
	a.family = a.series + a.features
	if a.accel != "" {
		a.family += "_" + a.accel
	}
	if a.version > 0 {
		a.family += "_v" + strconv.Itoa(a.version)
	}
	return a, true
}

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

func azureFamily(name string) (SKU, bool) {
	a, ok := parseAzure(name)
	if !ok {
		return SKU{}, false
	}
	per := func(g gpu, vcpuPerGPU float64) (SKU, bool) {
		s := g.sku(CloudAzure, name, a.family, round4(float64(a.vcpu)/vcpuPerGPU))
		s.VCPU = a.vcpu
		return s, s.GPUCount > 0
	}
	fixed := func(g gpu, n float64) (SKU, bool) {
		s := g.sku(CloudAzure, name, a.family, n)
		s.VCPU = a.vcpu
		return s, true
	}
	var s SKU
	switch {
	case !strings.HasPrefix(a.series, "N"):
		// Every non-N series (A, B, D, E, F, L, M, H, DC, ...) is CPU only.
		return SKU{Cloud: CloudAzure, Name: name, Family: a.family, VCPU: a.vcpu, Known: true, FromFamily: true}, true
	case a.series == "NC" && a.accel == "" && a.version == 3:
		s, ok = per(gV100_16, 6)
	case a.series == "NC" && a.accel == "" && a.version == 2:
		s, ok = per(gP100, 6)
		s.Retired, s.RetiredOn = true, "2023-09-06"
	case a.series == "NC" && a.accel == "" && a.version == 0:
		s, ok = per(gK80, 6)
		s.Retired, s.RetiredOn = true, "2023-09-06"
	case a.series == "ND" && a.accel == "" && a.version == 0:
		s, ok = per(gP40, 6)
		s.Retired, s.RetiredOn = true, "2023-09-06"
	case a.series == "ND" && a.accel == "" && a.version == 2:
		s, ok = fixed(gV100_32, 8)
	case a.series == "ND" && a.accel == "" && a.version == 4:
		s, ok = fixed(gA100_40, 8)
	case a.series == "ND" && a.accel == "A100" && a.version == 4:
		s, ok = fixed(gA100_80, 8)
	case a.series == "ND" && a.accel == "H100" && a.version == 5:
		s, ok = fixed(gH100, 8) // docs: 8 x H100 80GB (the Resource SKUs API says 12)
	case a.series == "ND" && a.accel == "H200" && a.version == 5:
		s, ok = fixed(gH200, 8)
	case a.series == "ND" && a.accel == "MI300X" && a.version == 5:
		s, ok = fixed(gMI300X, 8)
	case a.series == "NC" && a.accel == "T4" && a.version == 3:
		n := 1.0
		if a.vcpu == 64 {
			n = 4
		}
		s, ok = fixed(gT4, n)
	case a.series == "NC" && a.accel == "A100" && a.version == 4:
		s, ok = per(gA100_80P, 24)
	case (a.series == "NC" || a.series == "NCC") && a.accel == "H100" && a.version == 5:
		s, ok = per(gH100NVL, 40)
	case a.series == "NV" && a.accel == "A10" && a.version == 5:
		s, ok = per(gA10, 36) // NV6ads is a 1/6 partition: 0.1667 GPU, 4 GB
		if ok && s.GPUCount < 1 {
			s.GPUModel = gA10.model + " (1/" + strconv.Itoa(int(36/a.vcpu)) + " partition)"
		}
	case a.series == "NV" && a.accel == "" && a.version == 3:
		s, ok = per(gM60, 12)
	case a.series == "NV" && a.accel == "" && a.version == 4:
		s, ok = per(gMI25, 32)
	case a.series == "NV" && a.accel == "" && a.version == 0:
		s, ok = per(gM60, 6)
		s.Retired, s.RetiredOn = true, "2023-09-06"
	default:
		return SKU{}, false
	}
	if !ok {
		return SKU{}, false
	}
	if d := retired[strings.ToLower(name)]; d != "" {
		s.Retired, s.RetiredOn = true, d
	}
	return s, true
}

// awsGPU maps an EC2 family to its accelerator and the count per size
// ("" is the count for sizes not listed).
var awsGPU = map[string]struct {
	g     gpu
	sizes map[string]float64
}{
	"p2":      {gK80, map[string]float64{"xlarge": 1, "8xlarge": 8, "16xlarge": 16}},
	"p3":      {gpu{model: "NVIDIA V100 16GB", chip: "V100", mem: 16}, map[string]float64{"2xlarge": 1, "8xlarge": 4, "16xlarge": 8}},
	"p3dn":    {gpu{model: "NVIDIA V100 32GB", chip: "V100", mem: 32}, map[string]float64{"24xlarge": 8}},
	"p4d":     {gA100_40, map[string]float64{"24xlarge": 8}},
	"p4de":    {gA100_80, map[string]float64{"24xlarge": 8}},
	"p5":      {gH100, map[string]float64{"4xlarge": 1, "48xlarge": 8}},
	"p5e":     {gH200, map[string]float64{"48xlarge": 8}},
	"p5en":    {gH200, map[string]float64{"48xlarge": 8}},
	"p6-b200": {gB200, map[string]float64{"48xlarge": 8}},
	"g3":      {gM60, map[string]float64{"4xlarge": 1, "8xlarge": 2, "16xlarge": 4}},
	"g3s":     {gM60, map[string]float64{"xlarge": 1}},
	"g4dn":    {gpu{model: "NVIDIA T4 16GB", chip: "T4", mem: 16}, map[string]float64{"12xlarge": 4, "metal": 8, "": 1}},
	"g4ad":    {gV520, map[string]float64{"8xlarge": 2, "16xlarge": 4, "": 1}},
	"g5":      {gA10G, map[string]float64{"12xlarge": 4, "24xlarge": 4, "48xlarge": 8, "": 1}},
	"g5g":     {gT4G, map[string]float64{"16xlarge": 2, "metal": 2, "": 1}},
	"g6":      {gL4, map[string]float64{"12xlarge": 4, "24xlarge": 4, "48xlarge": 8, "": 1}},
	"gr6":     {gL4, map[string]float64{"": 1}},
	"g6e":     {gL40S, map[string]float64{"12xlarge": 4, "24xlarge": 4, "48xlarge": 8, "": 1}},
	"inf1":    {gInf1, map[string]float64{"xlarge": 1, "2xlarge": 1, "6xlarge": 4, "24xlarge": 16}},
	"inf2":    {gInf2, map[string]float64{"xlarge": 1, "8xlarge": 1, "24xlarge": 6, "48xlarge": 12}},
	"trn1":    {gTrn1, map[string]float64{"2xlarge": 1, "32xlarge": 16}},
	"trn1n":   {gTrn1, map[string]float64{"32xlarge": 16}},
	"trn2":    {gTrn2, map[string]float64{"48xlarge": 16}},
}

// awsCPU reports whether an EC2 family is one of the CPU-only lines.
func awsCPU(family string) bool {
	if strings.HasPrefix(family, "u-") {
		return true
	}
	for _, p := range []string{"mac", "hpc", "im", "is", "m", "c", "r", "t", "x", "z", "i", "d", "h", "a"} {
		if rest, ok := strings.CutPrefix(family, p); ok && rest != "" && rest[0] >= '1' && rest[0] <= '9' {
			return true
		}
	}
	return false
}

func awsFamily(cloud, name string) (SKU, bool) {
	n := strings.ToLower(name)
	if cloud == CloudSageMaker {
		var ok bool
		if n, ok = strings.CutPrefix(n, "ml."); !ok {
			return SKU{}, false
		}
	}
	family, size, ok := strings.Cut(n, ".")
	if !ok || family == "" || size == "" || strings.Contains(size, ".") {
		return SKU{}, false
	}
	if f, ok := awsGPU[family]; ok {
		count, ok := f.sizes[size]
		if !ok {
			if count, ok = f.sizes[""]; !ok {
				return SKU{}, false
			}
		}
		return f.g.sku(cloud, name, family, count), true
	}
	if awsCPU(family) {
		return SKU{Cloud: cloud, Name: name, Family: family, Known: true, FromFamily: true}, true
	}
	return SKU{}, false
}

// gcpAccelerators are the guest_accelerator types of Compute Engine.
var gcpAccelerators = map[string]gpu{
	"nvidia-tesla-k80":       gK80,
	"nvidia-tesla-p4":        {model: "NVIDIA Tesla P4 8GB", chip: "P4", mem: 8},
	"nvidia-tesla-p100":      gP100,
	"nvidia-tesla-v100":      gV100_16,
	"nvidia-tesla-t4":        {model: "NVIDIA T4 16GB", chip: "T4", mem: 16},
	"nvidia-l4":              gL4,
	"nvidia-tesla-a100":      gA100_40,
	"nvidia-a100-80gb":       gA100_80,
	"nvidia-h100-80gb":       gH100,
	"nvidia-h100-mega-80gb":  gH100,
	"nvidia-h200-141gb":      gH200,
	"nvidia-b200":            gB200,
	"nvidia-tesla-p4-vws":    {model: "NVIDIA Tesla P4 8GB", chip: "P4", mem: 8},
	"nvidia-tesla-t4-vws":    {model: "NVIDIA T4 16GB", chip: "T4", mem: 16},
	"nvidia-tesla-p100-vws":  gP100,
	"nvidia-l4-vws":          gL4,
	"nvidia-rtx-pro-6000":    {model: "NVIDIA RTX PRO 6000 96GB", chip: "RTX PRO 6000", mem: 96},
	"nvidia-tesla-a100-80gb": gA100_80,
}

// GCPAccelerator returns the GPU model and nominal memory per GPU of a
// Compute Engine accelerator type (nvidia-tesla-t4), accepting a full
// acceleratorTypes URL too.
func GCPAccelerator(typ string) (model string, memGiB float64, ok bool) {
	g, ok := gcpAccelerators[gcpAcceleratorName(typ)]
	return g.model, g.mem, ok
}

func gcpAcceleratorName(typ string) string {
	if i := strings.LastIndexByte(typ, '/'); i >= 0 {
		typ = typ[i+1:]
	}
	return strings.ToLower(typ)
}

var gcpCPU = map[string]bool{
	"n1": true, "n2": true, "n2d": true, "n4": true, "n4d": true, "e2": true, "c2": true, "c2d": true,
	"c3": true, "c3d": true, "c4": true, "c4a": true, "c4d": true, "t2a": true, "t2d": true,
	"m1": true, "m2": true, "m3": true, "m4": true, "h3": true, "h4d": true, "z3": true, "f1": true, "g1": true,
}

func gcpFamily(name string) (SKU, bool) {
	n := strings.ToLower(name)
	if typ, ok := strings.CutPrefix(n, "gpu:"); ok {
		g, ok := gcpAccelerators[typ]
		if !ok {
			return SKU{}, false
		}
		return g.sku(CloudGCP, name, "gpu", 1), true
	}
	parts := strings.Split(n, "-")
	family := parts[0]
	if len(parts) < 2 {
		return SKU{}, false
	}
	last := parts[len(parts)-1]
	gcount := func() (float64, bool) {
		v, err := strconv.Atoi(strings.TrimSuffix(last, "g"))
		return float64(v), err == nil && strings.HasSuffix(last, "g") && v > 0
	}
	var g gpu
	var count float64
	switch family {
	case "a2":
		g = gA100_40
		if parts[1] == "ultragpu" {
			g = gA100_80
		}
		c, ok := gcount()
		if !ok {
			return SKU{}, false
		}
		count = c
	case "a3":
		g = gH100
		if parts[1] == "ultragpu" {
			g = gH200
		}
		c, ok := gcount()
		if !ok {
			return SKU{}, false
		}
		count = c
	case "a4":
		g = gB200
		c, ok := gcount()
		if !ok {
			return SKU{}, false
		}
		count = c
	case "g2":
		v, err := strconv.Atoi(last)
		if err != nil {
			return SKU{}, false
		}
		switch v {
		case 4, 8, 12, 16, 32:
			count = 1
		case 24:
			count = 2
		case 48:
			count = 4
		case 96:
			count = 8
		default:
			return SKU{}, false
		}
		g = gL4
		s := g.sku(CloudGCP, name, family, count)
		s.VCPU = v
		return s, true
	default:
		if gcpCPU[family] {
			s := SKU{Cloud: CloudGCP, Name: name, Family: family, Known: true, FromFamily: true}
			if v, err := strconv.Atoi(last); err == nil && parts[1] != "custom" {
				s.VCPU = v
			}
			return s, true
		}
		return SKU{}, false
	}
	return g.sku(CloudGCP, name, family, count), true
}

func round4(f float64) float64 {
	x := f * 10000
	if x < 0 {
		return -float64(int64(-x+0.5)) / 10000
	}
	return float64(int64(x+0.5)) / 10000
}
