// Package metrics is what `planwarden serve` exposes on /metrics, in the
// Prometheus text format (client_golang): deliveries by event and outcome,
// jobs by kind and outcome with their duration, the queue's depth, GitHub
// calls by method and status class with the rate limit left, and reviews'
// duration and plan size. The receiver and the worker report through small
// observer methods, so neither imports Prometheus (the receiver Lambda stays
// small); only serve builds a Metrics.
package metrics

import (
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics holds the collectors of one serve process.
type Metrics struct {
	reg           *prometheus.Registry
	deliveries    *prometheus.CounterVec
	jobs          *prometheus.HistogramVec
	githubCalls   *prometheus.CounterVec
	rateRemaining *unsetGauge
	reviews       prometheus.Histogram
	planBytes     prometheus.Histogram
}

// New registers planwarden's collectors, and Go's and the process's own, on
// a registry of its own. queueDepth, when not nil, is read at each scrape.
func New(queueDepth func() float64) *Metrics {
	reg := prometheus.NewRegistry()
	m := &Metrics{
		reg: reg,
		deliveries: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "planwarden_webhook_deliveries_total",
			Help: "Webhook deliveries received, by event and outcome (queued, duplicate, ignored, ping, refused, slow, busy, error).",
		}, []string{"event", "outcome"}),
		jobs: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "planwarden_job_duration_seconds",
			Help:    "Time a worker spent on a job, by job event and outcome (done, retry, dead).",
			Buckets: []float64{0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 180, 600},
		}, []string{"event", "outcome"}),
		githubCalls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "planwarden_github_requests_total",
			Help: "Requests to GitHub's API, by method and status class (2xx, 3xx, 4xx, 5xx, error).",
		}, []string{"method", "status"}),
		// Absent until GitHub first answers: a 0 before then would fire
		// every alert on it at each start.
		rateRemaining: &unsetGauge{desc: prometheus.NewDesc("planwarden_github_rate_limit_remaining",
			"X-RateLimit-Remaining of GitHub's last API answer (absent until GitHub first answers).", nil, nil)},
		reviews: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "planwarden_review_duration_seconds",
			Help:    "Time to review the plans of one workflow run (parse, cost, rules, render).",
			Buckets: []float64{0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30},
		}),
		planBytes: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "planwarden_plan_bytes",
			Help:    "Uncompressed size of each plan reviewed.",
			Buckets: prometheus.ExponentialBuckets(16<<10, 4, 9), // 16 KiB .. 1 GiB
		}),
	}
	reg.MustRegister(m.deliveries, m.jobs, m.githubCalls, m.rateRemaining, m.reviews, m.planBytes,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if queueDepth != nil {
		reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "planwarden_queue_depth",
			Help: "Jobs waiting in the queue (not leased), read at each scrape.",
		}, queueDepth))
	}
	return m
}

// Handler serves the registry for /metrics.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// Delivery counts one webhook delivery.
func (m *Metrics) Delivery(event, outcome string) {
	m.deliveries.WithLabelValues(event, outcome).Inc()
}

// Job records how long one job took and how it ended.
func (m *Metrics) Job(event, outcome string, took time.Duration) {
	m.jobs.WithLabelValues(event, outcome).Observe(took.Seconds())
}

// Review records one review's duration and the size of each plan in it.
func (m *Metrics) Review(took time.Duration, planSizes ...int64) {
	m.reviews.Observe(took.Seconds())
	for _, n := range planSizes {
		m.planBytes.Observe(float64(n))
	}
}

// Transport counts every request that next sends to GitHub, and keeps the
// rate limit GitHub last reported.
func (m *Metrics) Transport(next http.RoundTripper) http.RoundTripper {
	return roundTripper(func(r *http.Request) (*http.Response, error) {
		resp, err := next.RoundTrip(r)
		if err != nil {
			m.githubCalls.WithLabelValues(r.Method, "error").Inc()
			return resp, err
		}
		m.githubCalls.WithLabelValues(r.Method, strconv.Itoa(resp.StatusCode/100)+"xx").Inc()
		if v := resp.Header.Get("X-RateLimit-Remaining"); v != "" {
			if n, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
				m.rateRemaining.Set(n)
			}
		}
		return resp, nil
	})
}

// unsetGauge is a gauge that /metrics leaves out until it is first set.
type unsetGauge struct {
	desc *prometheus.Desc
	v    atomic.Pointer[float64]
}

func (g *unsetGauge) Set(v float64) { g.v.Store(&v) }

func (g *unsetGauge) Describe(ch chan<- *prometheus.Desc) { ch <- g.desc }

func (g *unsetGauge) Collect(ch chan<- prometheus.Metric) {
	if v := g.v.Load(); v != nil {
		ch <- prometheus.MustNewConstMetric(g.desc, prometheus.GaugeValue, *v)
	}
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
