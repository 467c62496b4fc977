package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/aws/aws-lambda-go/events"
)

// serveHTTP runs one Function URL or API Gateway HTTP API request (both
// send payload format 2.0 and take the same response) through h, buffered,
// in the style of aws-lambda-go's lambdaurl.Wrap.
func serveHTTP(ctx context.Context, h http.Handler, ev *events.APIGatewayV2HTTPRequest) (*events.APIGatewayV2HTTPResponse, error) {
	req, err := httpRequest(ctx, ev)
	if err != nil {
		return nil, err
	}
	w := &responseWriter{header: http.Header{}}
	h.ServeHTTP(w, req)
	return w.response(), nil
}

func httpRequest(ctx context.Context, ev *events.APIGatewayV2HTTPRequest) (*http.Request, error) {
	body := []byte(ev.Body)
	if ev.IsBase64Encoded {
		var err error
		if body, err = base64.StdEncoding.DecodeString(ev.Body); err != nil {
			return nil, fmt.Errorf("decode base64 request body: %w", err)
		}
	}
	path := ev.RawPath
	if path == "" {
		path = ev.RequestContext.HTTP.Path
	}
	// An HTTP API stage other than $default prefixes the path with its name.
	if st := ev.RequestContext.Stage; st != "" && st != "$default" {
		if p, ok := strings.CutPrefix(path, "/"+st); ok && (p == "" || p[0] == '/') {
			path = p
		}
	}
	if path == "" {
		path = "/"
	}
	host := ev.RequestContext.DomainName
	if host == "" {
		host = "lambda-url.localhost"
	}
	url := "https://" + host + path
	if ev.RawQueryString != "" {
		url += "?" + ev.RawQueryString
	}
	req, err := http.NewRequestWithContext(ctx, ev.RequestContext.HTTP.Method, url, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("build http request: %w", err)
	}
	for k, v := range ev.Headers {
		req.Header.Add(k, v)
	}
	if len(ev.Cookies) > 0 {
		req.Header.Set("Cookie", strings.Join(ev.Cookies, "; "))
	}
	if h := req.Header.Get("Host"); h != "" {
		req.Host = h
	}
	req.ContentLength = int64(len(body))
	req.RemoteAddr = ev.RequestContext.HTTP.SourceIP
	req.RequestURI = path
	return req, nil
}

// responseWriter buffers the handler's response; planwarden's answers are
// a few bytes (202, 401, ...), so nothing needs streaming.
type responseWriter struct {
	header http.Header
	code   int
	body   bytes.Buffer
}

func (w *responseWriter) Header() http.Header { return w.header }

func (w *responseWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
}

func (w *responseWriter) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.body.Write(p)
}

func (w *responseWriter) response() *events.APIGatewayV2HTTPResponse {
	r := &events.APIGatewayV2HTTPResponse{StatusCode: w.code, Headers: map[string]string{}}
	if r.StatusCode == 0 {
		r.StatusCode = http.StatusOK
	}
	for k, v := range w.header {
		if k == "Set-Cookie" {
			r.Cookies = v
			continue
		}
		r.Headers[k] = strings.Join(v, ",")
	}
	if b := w.body.Bytes(); utf8.Valid(b) {
		r.Body = string(b)
	} else {
		r.Body, r.IsBase64Encoded = base64.StdEncoding.EncodeToString(b), true
	}
	return r
}
