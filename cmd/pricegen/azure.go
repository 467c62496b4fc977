package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/planwarden/planwarden/infra"
)

// AzurePricesURL is the Azure Retail Prices API endpoint.
const AzurePricesURL = "https://prices.azure.com/api/retail/prices"

// azureFetcher reads on-demand Linux VM prices from the Azure Retail Prices API.
type azureFetcher struct {
	URL    string
	Client *http.Client
	// PageSize is the API's page size (100); a full page with no
	// NextPageLink is followed with $skip.
	PageSize int
	// MaxPages bounds the walk per region.
	MaxPages int
	Now      time.Time
}

type azurePage struct {
	BillingCurrency string      `json:"BillingCurrency"`
	Items           []azureItem `json:"Items"`
	NextPageLink    string      `json:"NextPageLink"`
	Count           int         `json:"Count"`
}

type azureItem struct {
	CurrencyCode       string  `json:"currencyCode"`
	RetailPrice        float64 `json:"retailPrice"`
	UnitPrice          float64 `json:"unitPrice"`
	ArmRegionName      string  `json:"armRegionName"`
	EffectiveStartDate string  `json:"effectiveStartDate"`
	MeterName          string  `json:"meterName"`
	ProductName        string  `json:"productName"`
	SkuName            string  `json:"skuName"`
	ServiceName        string  `json:"serviceName"`
	ServiceFamily      string  `json:"serviceFamily"`
	UnitOfMeasure      string  `json:"unitOfMeasure"`
	Type               string  `json:"type"`
	ArmSkuName         string  `json:"armSkuName"`
}

// azureFilter is the OData filter Karpenter-Azure uses, per region.
// Filter values are case-sensitive from api-version 2023-01-01-preview on.
func azureFilter(region string) string {
	return "priceType eq 'Consumption' and currencyCode eq 'USD' and serviceFamily eq 'Compute' and " +
		"serviceName eq 'Virtual Machines' and armRegionName eq '" + region + "'"
}

func (a *azureFetcher) firstURL(region string, skip int) string {
	q := "api-version=2023-01-01-preview&$filter=" + strings.ReplaceAll(url.QueryEscape(azureFilter(region)), "+", "%20")
	if skip > 0 {
		q += "&$skip=" + strconv.Itoa(skip)
	}
	return a.URL + "?" + q
}

// fetch returns one observation per armSkuName in the region: Linux,
// on-demand, hourly. It drops Windows products, Spot and Low Priority
// meters; when several meters remain for one armSkuName the one with the
// latest effectiveStartDate wins (ties: the last seen, as Karpenter does).
func (a *azureFetcher) fetch(ctx context.Context, region string) ([]observation, error) {
	pageSize := a.PageSize
	if pageSize <= 0 {
		pageSize = 100
	}
	maxPages := a.MaxPages
	if maxPages <= 0 {
		maxPages = 2000
	}
	best := map[string]azureItem{}
	var order []string
	next, seen := a.firstURL(region, 0), 0
	visited := map[string]bool{}
	for page := 0; next != ""; page++ {
		if page >= maxPages {
			return nil, fmt.Errorf("azure %s: more than %d pages; raise -max-pages", region, maxPages)
		}
		if visited[next] {
			return nil, fmt.Errorf("azure %s: page %s repeats", region, next)
		}
		visited[next] = true
		p, err := a.get(ctx, next)
		if err != nil {
			return nil, fmt.Errorf("azure %s page %d: %w", region, page+1, err)
		}
		for _, it := range p.Items {
			if !azureKeep(it, region) {
				continue
			}
			k := strings.ToLower(it.ArmSkuName)
			old, ok := best[k]
			if !ok {
				order = append(order, k)
			}
			if !ok || it.EffectiveStartDate >= old.EffectiveStartDate {
				best[k] = it
			}
		}
		seen += len(p.Items)
		switch {
		case p.NextPageLink != "":
			next = p.NextPageLink
		case len(p.Items) >= pageSize:
			// NextPageLink has been seen empty on a full page: keep paging with $skip.
			next = a.firstURL(region, seen)
		default:
			next = ""
		}
	}
	now := a.Now.UTC().Format(time.RFC3339)
	out := make([]observation, 0, len(order))
	for _, k := range order {
		it := best[k]
		out = append(out, observation{Cloud: infra.CloudAzure, SKU: it.ArmSkuName, Region: it.ArmRegionName,
			USDPerHour: it.RetailPrice, Observed: now,
			Source: fmt.Sprintf("%s (Retail Prices API, fetched %s; meterName %q, productName %q, effectiveStartDate %s)",
				AzurePricesURL, now, it.MeterName, it.ProductName, it.EffectiveStartDate)})
	}
	return out, nil
}

func azureKeep(it azureItem, region string) bool {
	return it.ArmSkuName != "" && it.RetailPrice > 0 &&
		(it.Type == "" || it.Type == "Consumption") &&
		(it.CurrencyCode == "" || it.CurrencyCode == "USD") &&
		(it.ServiceName == "" || it.ServiceName == "Virtual Machines") &&
		strings.EqualFold(it.ArmRegionName, region) &&
		!strings.HasSuffix(it.ProductName, " Windows") &&
		!strings.HasSuffix(it.MeterName, " Low Priority") &&
		!strings.HasSuffix(it.SkuName, " Low Priority") &&
		!strings.HasSuffix(it.SkuName, " Spot") &&
		!strings.HasSuffix(it.MeterName, " Spot") &&
		(it.UnitOfMeasure == "" || it.UnitOfMeasure == "1 Hour")
}

func (a *azureFetcher) get(ctx context.Context, u string) (*azurePage, error) {
	body, err := httpGet(ctx, a.Client, u, 64<<20)
	if err != nil {
		return nil, err
	}
	var p azurePage
	if err := json.Unmarshal(body, &p); err != nil {
		return nil, fmt.Errorf("decode %s: %w", u, err)
	}
	return &p, nil
}

// httpGet fetches a URL, refusing non-200 answers and bodies over limit bytes.
func httpGet(ctx context.Context, c *http.Client, u string, limit int64) ([]byte, error) {
	resp, err := open(ctx, c, u)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", u, err)
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("read %s: body over %d bytes", u, limit)
	}
	return b, nil
}

func open(ctx context.Context, c *http.Client, u string) (*http.Response, error) {
	if c == nil {
		c = http.DefaultClient
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, fmt.Errorf("request %s: %w", u, err)
	}
	req.Header.Set("User-Agent", "planwarden-pricegen")
	resp, err := c.Do(req)
	if err != nil {
		return nil, fmt.Errorf("get %s: %w", u, err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, fmt.Errorf("get %s: status %s", u, resp.Status)
	}
	return resp, nil
}
