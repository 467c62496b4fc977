package githubtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// SpecPath is GitHub's REST description, relative to the module root.
const SpecPath = "../shared/corpus/github-openapi/api.github.com.json"

// spec is GitHub's REST description as kin-openapi loaded it, with a router
// over its paths as the fake serves them (below APIPrefix).
type spec struct {
	doc    *openapi3.T
	router routers.Router
	// loadTime is how long trimming, loading and routing took.
	loadTime time.Duration
}

var (
	specOnce   sync.Once
	loaded     *spec
	specErr    error
	specReason string
)

// loadSpec reads the description once per test binary. A nil spec with a
// reason means the file is absent and validation is skipped.
func loadSpec() (*spec, string, error) {
	specOnce.Do(func() {
		file := specFile()
		data, err := os.ReadFile(file)
		if os.IsNotExist(err) {
			specReason = "GitHub's REST description is not at " + file + "; requests are not validated"
			return
		}
		if err != nil {
			specErr = err
			return
		}
		loaded, specErr = newSpec(data)
		if specErr != nil {
			specErr = fmt.Errorf("load %s: %w", file, specErr)
		}
	})
	return loaded, specReason, specErr
}

// specFile finds SpecPath from this source file (the module root is two
// directories up), so it works from any test's working directory.
func specFile() string {
	if env := os.Getenv("PLANWARDEN_GITHUB_OPENAPI"); env != "" {
		return env
	}
	_, self, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(self), "..", "..")
	return filepath.Join(root, filepath.FromSlash(SpecPath))
}

// slashParams are the templates whose last parameter holds slashes on
// GitHub (a file path, a fully qualified ref such as heads/main), which an
// OpenAPI 3.0 path parameter cannot: they are routed with gorilla/mux's
// {name:.*} instead, so that /contents/.github/planwarden.yml finds its
// operation. The parameter keeps its name, so it is still validated.
var slashParams = map[string]string{
	"/repos/{owner}/{repo}/contents/{path}":         "/repos/{owner}/{repo}/contents/{path:.*}",
	"/repos/{owner}/{repo}/git/ref/{ref}":           "/repos/{owner}/{repo}/git/ref/{ref:.*}",
	"/repos/{owner}/{repo}/git/refs/{ref}":          "/repos/{owner}/{repo}/git/refs/{ref:.*}",
	"/repos/{owner}/{repo}/git/matching-refs/{ref}": "/repos/{owner}/{repo}/git/matching-refs/{ref:.*}",
}

// newSpec loads a description with kin-openapi and builds its router.
func newSpec(data []byte) (*spec, error) {
	start := time.Now()
	data, err := requestsOnly(data)
	if err != nil {
		return nil, err
	}
	loader := openapi3.NewLoader()
	loader.IsExternalRefsAllowed = false
	doc, err := loader.LoadFromData(data)
	if err != nil {
		return nil, err
	}
	// The document is not doc.Validate()d (so neither are its examples):
	// that would check GitHub's description, not the bot's requests, and
	// GitHub's fails it. It has templates OpenAPI calls conflicting, such
	// as /orgs/{org}/attestations/{subject_digest} and .../{attestation_id}
	// (a GET and a DELETE on what a router sees as one path: the router
	// takes the first, so a DELETE there would be reported; the bot sends
	// neither). Validating a request needs only the loaded, resolved
	// document.

	// Every path lives below the fake's prefix, whatever host GitHub gives
	// it (release asset uploads name uploads.github.com).
	doc.Servers = openapi3.Servers{{URL: APIPrefix}}
	for _, tmpl := range doc.Paths.InMatchingOrder() {
		item := doc.Paths.Value(tmpl)
		item.Servers = nil
		if routed, ok := slashParams[tmpl]; ok {
			doc.Paths.Delete(tmpl)
			doc.Paths.Set(routed, item)
		}
	}
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("route GitHub's paths: %w", err)
	}
	return &spec{doc: doc, router: router, loadTime: time.Since(start)}, nil
}

// requestsOnly trims the description to what validating requests reads:
// every path and operation with its parameters and request body, and the
// components these refer to, transitively. It drops the responses (most of
// the document: their schemas and examples), the webhooks and the
// components only they use: 2 MB of the 13 are left, loading is about
// twice as fast (0.6 s instead of 1.3 to 1.8 s; 4 s instead of 13 s under
// -race) and the document keeps 3 MB instead of 40. A ref this gets wrong
// fails the load, not a validation.
func requestsOnly(data []byte) ([]byte, error) {
	var doc map[string]json.RawMessage
	err := json.Unmarshal(data, &doc)
	if err != nil {
		return nil, err
	}
	var paths map[string]map[string]json.RawMessage
	if err := json.Unmarshal(doc["paths"], &paths); err != nil {
		return nil, fmt.Errorf("paths: %w", err)
	}
	noResponses := json.RawMessage(`{"default":{"description":"not loaded: the fake validates requests only"}}`)
	for tmpl, item := range paths {
		for method, raw := range item {
			switch method {
			case "get", "put", "post", "delete", "options", "head", "patch", "trace":
			default:
				continue // parameters, summary, servers...
			}
			var op map[string]json.RawMessage
			if err := json.Unmarshal(raw, &op); err != nil {
				return nil, fmt.Errorf("%s %s: %w", method, tmpl, err)
			}
			op["responses"] = noResponses
			if item[method], err = json.Marshal(op); err != nil {
				return nil, err
			}
		}
	}
	if doc["paths"], err = json.Marshal(paths); err != nil {
		return nil, err
	}
	var all map[string]map[string]json.RawMessage
	if err := json.Unmarshal(doc["components"], &all); err != nil {
		return nil, fmt.Errorf("components: %w", err)
	}
	kept := map[string]map[string]json.RawMessage{"securitySchemes": all["securitySchemes"]}
	todo := [][]byte{doc["paths"]}
	for len(todo) > 0 {
		raw := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		for _, m := range componentRef.FindAllSubmatch(raw, -1) {
			kind, name := string(m[1]), string(m[2])
			if _, ok := kept[kind][name]; ok {
				continue
			}
			c, ok := all[kind][name]
			if !ok {
				continue // the loader reports it
			}
			if kept[kind] == nil {
				kept[kind] = map[string]json.RawMessage{}
			}
			kept[kind][name] = c
			todo = append(todo, c)
		}
	}
	if doc["components"], err = json.Marshal(kept); err != nil {
		return nil, err
	}
	delete(doc, "x-webhooks")
	return json.Marshal(doc)
}

var componentRef = regexp.MustCompile(`"\$ref"\s*:\s*"#/components/([^/"]+)/([^/"]+)"`)

// validate checks a request given as its method, its path below APIPrefix
// and its body (sent as JSON when there is one). It returns what does not
// match, or nil.
func (s *spec) validate(method, path string, body []byte) []string {
	req, err := http.NewRequest(method, "http://githubtest"+APIPrefix+path, nil)
	if err != nil {
		return []string{fmt.Sprintf("%s %s: %v", method, path, err)}
	}
	if len(body) > 0 {
		req.Header.Set("Content-Type", "application/json")
	}
	return s.validateRequest(req, body)
}

// validateRequest checks a request as the bot sent it (its path below
// APIPrefix, query, headers and body, which it was read into): route,
// method, path and query parameters, and the body against its schema. It
// returns what does not match, or nil.
func (s *spec) validateRequest(r *http.Request, body []byte) []string {
	r = r.Clone(context.Background())
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	where := strings.TrimPrefix(r.URL.Path, APIPrefix)
	route, params, err := s.router.FindRoute(r)
	switch {
	case errors.Is(err, routers.ErrPathNotFound):
		return []string{fmt.Sprintf("no path of GitHub's REST API matches %s", where)}
	case errors.Is(err, routers.ErrMethodNotAllowed):
		return []string{fmt.Sprintf("%s does not take %s", where, r.Method)}
	case err != nil:
		return []string{fmt.Sprintf("route %s %s: %v", r.Method, where, err)}
	}
	// ghinstallation asks for an installation token with the body null (its
	// InstallationTokenOptions, nil, as JSON), which GitHub takes as no
	// body; the description's schema is an object, not nullable. A null
	// where the body is optional is validated as no body.
	if rb := route.Operation.RequestBody; rb != nil && rb.Value != nil && !rb.Value.Required && string(bytes.TrimSpace(body)) == "null" {
		r.Body, r.ContentLength = http.NoBody, 0
	}
	err = openapi3filter.ValidateRequest(context.Background(), &openapi3filter.RequestValidationInput{
		Request:    r,
		PathParams: params,
		Route:      route,
		Options:    &validateOptions,
	})
	if err == nil {
		return nil
	}
	errs := []error{err}
	var multi openapi3.MultiError
	if errors.As(err, &multi) {
		errs = multi
	}
	var probs []string
	for _, e := range errs {
		probs = append(probs, fmt.Sprintf("as %s %s: %v", r.Method, route.Path, e))
	}
	return probs
}

var validateOptions = openapi3filter.Options{
	MultiError: true,
	// Authentication is the fake's own check (installation token or App
	// JWT, see Server.middleware); GitHub's description declares no
	// security schemes that could model those.
	AuthenticationFunc: openapi3filter.NoopAuthenticationFunc,
	// A body where the operation takes none is a mistake too.
	RejectWhenRequestBodyNotSpecified: true,
	// Only validate: do not fill the request with the schema's defaults.
	SkipSettingDefaults: true,
	SchemaValidationOptions: []openapi3.SchemaValidationOption{
		openapi3.MultiErrors(),
		// Leaves the schema and the value out of messages: a check run
		// schema printed per problem would bury the problem.
		openapi3.DisableSchemaErrorDetails(),
	},
}
