package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/planwarden/planwarden/infra"
)

// AWSPricingURL is the host of the AWS Price List bulk offer files.
const AWSPricingURL = "https://pricing.us-east-1.amazonaws.com"

// awsFetcher reads on-demand prices from the AWS Price List bulk files:
// the service index, then the service's region index, then one region's
// offer file, which is streamed (an EC2 region file is hundreds of MB).
type awsFetcher struct {
	URL    string
	Client *http.Client
}

type awsIndex struct {
	PublicationDate string `json:"publicationDate"`
	Offers          map[string]struct {
		OfferCode             string `json:"offerCode"`
		CurrentVersionURL     string `json:"currentVersionUrl"`
		CurrentRegionIndexURL string `json:"currentRegionIndexUrl"`
	} `json:"offers"`
}

type awsRegionIndex struct {
	PublicationDate string `json:"publicationDate"`
	Regions         map[string]struct {
		RegionCode        string `json:"regionCode"`
		CurrentVersionURL string `json:"currentVersionUrl"`
	} `json:"regions"`
}

type awsProduct struct {
	SKU           string            `json:"sku"`
	ProductFamily string            `json:"productFamily"`
	Attributes    map[string]string `json:"attributes"`
}

type awsTerm struct {
	PriceDimensions map[string]struct {
		Unit         string            `json:"unit"`
		PricePerUnit map[string]string `json:"pricePerUnit"`
	} `json:"priceDimensions"`
}

// awsServices maps the services pricegen reads to catalog clouds.
var awsServices = map[string]string{"AmazonEC2": infra.CloudAWS, "AmazonSageMaker": infra.CloudSageMaker}

func (a *awsFetcher) resolve(ref string) (string, error) {
	base, err := url.Parse(a.URL + "/")
	if err != nil {
		return "", fmt.Errorf("base url %q: %w", a.URL, err)
	}
	r, err := url.Parse(ref)
	if err != nil {
		return "", fmt.Errorf("url %q: %w", ref, err)
	}
	return base.ResolveReference(r).String(), nil
}

func (a *awsFetcher) getJSON(ctx context.Context, ref string, v any) (string, error) {
	u, err := a.resolve(ref)
	if err != nil {
		return "", err
	}
	b, err := httpGet(ctx, a.Client, u, 64<<20)
	if err != nil {
		return u, err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return u, fmt.Errorf("decode %s: %w", u, err)
	}
	return u, nil
}

// fetch returns the on-demand hourly prices of one service in one region.
func (a *awsFetcher) fetch(ctx context.Context, service, region string) ([]observation, error) {
	cloud, ok := awsServices[service]
	if !ok {
		return nil, fmt.Errorf("aws service %q: want AmazonEC2 or AmazonSageMaker", service)
	}
	var idx awsIndex
	if _, err := a.getJSON(ctx, "/offers/v1.0/aws/index.json", &idx); err != nil {
		return nil, fmt.Errorf("aws offer index: %w", err)
	}
	off, ok := idx.Offers[service]
	if !ok || off.CurrentRegionIndexURL == "" {
		return nil, fmt.Errorf("aws offer index: no currentRegionIndexUrl for %s", service)
	}
	var ri awsRegionIndex
	if _, err := a.getJSON(ctx, off.CurrentRegionIndexURL, &ri); err != nil {
		return nil, fmt.Errorf("aws %s region index: %w", service, err)
	}
	reg, ok := ri.Regions[region]
	if !ok || reg.CurrentVersionURL == "" {
		return nil, fmt.Errorf("aws %s region index: no region %s", service, region)
	}
	u, err := a.resolve(reg.CurrentVersionURL)
	if err != nil {
		return nil, err
	}
	resp, err := open(ctx, a.Client, u)
	if err != nil {
		return nil, fmt.Errorf("aws %s %s offer file: %w", service, region, err)
	}
	defer resp.Body.Close()
	obs, err := readOffer(resp.Body, cloud, region, u)
	if err != nil {
		return nil, fmt.Errorf("aws %s %s offer file %s: %w", service, region, u, err)
	}
	return obs, nil
}

// keepProduct applies prices.md's filters: EC2 Linux, shared tenancy (or
// bare metal's dedicated), no pre-installed software, capacitystatus Used,
// on-demand; SageMaker "ML Instance" products of the Hosting component.
// It returns the catalog SKU name, or "".
func keepProduct(cloud, region string, p awsProduct) string {
	at := p.Attributes
	if rc := at["regionCode"]; rc != "" && rc != region {
		return ""
	}
	switch cloud {
	case infra.CloudAWS:
		switch {
		case p.ProductFamily == "Compute Instance" && at["tenancy"] == "Shared":
		case p.ProductFamily == "Compute Instance (bare metal)" && at["tenancy"] == "Dedicated":
		default:
			return ""
		}
		if at["operatingSystem"] != "Linux" || at["preInstalledSw"] != "NA" || at["capacitystatus"] != "Used" {
			return ""
		}
		if lm := at["licenseModel"]; lm != "" && lm != "No License required" {
			return ""
		}
		if mo := at["marketoption"]; mo != "" && mo != "OnDemand" {
			return ""
		}
		if op := at["operation"]; op != "" && op != "RunInstances" {
			return ""
		}
		return at["instanceType"]
	case infra.CloudSageMaker:
		if p.ProductFamily != "ML Instance" || !strings.EqualFold(at["component"], "Hosting") {
			return ""
		}
		name := at["instanceName"]
		if name == "" {
			name = strings.TrimSuffix(at["instanceType"], "-hosting")
		}
		if !strings.HasPrefix(name, "ml.") {
			return ""
		}
		return name
	}
	return ""
}

// readOffer streams an offer file: products first or terms first both work.
func readOffer(r io.Reader, cloud, region, source string) ([]observation, error) {
	dec := json.NewDecoder(r)
	dec.UseNumber()
	if err := expectDelim(dec, '{'); err != nil {
		return nil, err
	}
	products := map[string]awsProduct{} // product sku -> kept product
	names := map[string]string{}        // product sku -> instance name
	prices := map[string]float64{}      // product sku -> USD/h
	var published string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, err
		}
		switch k {
		case "publicationDate":
			if err := dec.Decode(&published); err != nil {
				return nil, fmt.Errorf("publicationDate: %w", err)
			}
		case "products":
			if err := eachKey(dec, func(string) error {
				var p awsProduct
				if err := dec.Decode(&p); err != nil {
					return fmt.Errorf("products: %w", err)
				}
				if n := keepProduct(cloud, region, p); n != "" {
					products[p.SKU], names[p.SKU] = p, n
				}
				return nil
			}); err != nil {
				return nil, err
			}
		case "terms":
			if err := eachKey(dec, func(termType string) error {
				if termType != "OnDemand" {
					return skipValue(dec)
				}
				return eachKey(dec, func(sku string) error {
					var terms map[string]awsTerm
					if err := dec.Decode(&terms); err != nil {
						return fmt.Errorf("terms.OnDemand.%s: %w", sku, err)
					}
					if len(products) > 0 && products[sku].SKU == "" {
						return nil
					}
					if v, ok := hourly(terms); ok {
						prices[sku] = v
					}
					return nil
				})
			}); err != nil {
				return nil, err
			}
		default:
			if err := skipValue(dec); err != nil {
				return nil, err
			}
		}
	}
	observed := published
	if len(observed) >= 10 {
		observed = observed[:10]
	}
	byName := map[string]observation{}
	for sku, p := range products {
		v, ok := prices[sku]
		if !ok {
			continue
		}
		n := names[sku]
		o := observation{Cloud: cloud, SKU: n, Region: region, USDPerHour: v, Observed: published,
			Source: fmt.Sprintf("%s (AWS Price List bulk offer file, publicationDate %s; product %s; OnDemand Hrs)", source, observed, sku),
			Facts:  awsFacts(cloud, p.Attributes)}
		if old, dup := byName[n]; dup && old.USDPerHour <= v {
			continue // keep the lower of duplicate meters, deterministically
		}
		byName[n] = o
	}
	out := make([]observation, 0, len(byName))
	for _, o := range byName {
		out = append(out, o)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].SKU < out[j].SKU })
	return out, nil
}

// hourly picks the non-zero USD price of an "Hrs" dimension.
func hourly(terms map[string]awsTerm) (float64, bool) {
	for _, t := range terms {
		for _, d := range t.PriceDimensions {
			if d.Unit != "Hrs" && d.Unit != "Hours" && d.Unit != "Hour" {
				continue
			}
			v, err := strconv.ParseFloat(d.PricePerUnit["USD"], 64)
			if err == nil && v > 0 {
				return v, true
			}
		}
	}
	return 0, false
}

// awsFacts reads specs from price-list attributes: vcpu, memory ("16 GiB"),
// gpu count and gpuMemory. The GPU model is not in the price list.
func awsFacts(cloud string, at map[string]string) infra.CatalogSKU {
	var f infra.CatalogSKU
	vcpu := at["vcpu"]
	if vcpu == "" {
		vcpu = at["vCpu"]
	}
	f.VCPU = int(firstNumber(vcpu))
	f.MemoryGiB = firstNumber(at["memory"])
	f.GPUCount = firstNumber(at["gpu"])
	f.GPUMemoryGiB = firstNumber(at["gpuMemory"])
	if cloud == infra.CloudAWS {
		f.Source = "AWS Price List attributes"
	}
	return f
}

func firstNumber(s string) float64 {
	s = strings.TrimSpace(strings.ReplaceAll(s, ",", ""))
	end := 0
	for end < len(s) && (s[end] >= '0' && s[end] <= '9' || s[end] == '.') {
		end++
	}
	v, err := strconv.ParseFloat(s[:end], 64)
	if err != nil {
		return 0
	}
	return v
}

func expectDelim(dec *json.Decoder, want json.Delim) error {
	t, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := t.(json.Delim); !ok || d != want {
		return fmt.Errorf("want %q, got %v", want, t)
	}
	return nil
}

// eachKey walks an object, calling fn with the decoder positioned at each value.
func eachKey(dec *json.Decoder, fn func(key string) error) error {
	if err := expectDelim(dec, '{'); err != nil {
		return err
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		k, ok := t.(string)
		if !ok {
			return fmt.Errorf("want an object key, got %v", t)
		}
		if err := fn(k); err != nil {
			return err
		}
	}
	_, err := dec.Token()
	return err
}

// skipValue reads one value without keeping it.
func skipValue(dec *json.Decoder) error {
	depth := 0
	for {
		t, err := dec.Token()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return io.ErrUnexpectedEOF
			}
			return err
		}
		if d, ok := t.(json.Delim); ok {
			switch d {
			case '{', '[':
				depth++
			default:
				depth--
			}
		}
		if depth == 0 {
			return nil
		}
	}
}
