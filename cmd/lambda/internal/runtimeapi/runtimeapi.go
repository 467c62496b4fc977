// Package runtimeapi is a local stand-in for the AWS Lambda Runtime API
// (2018-06-01), enough to boot a provided.al2023 bootstrap on loopback,
// see when it first asks for an event (the end of its init), and invoke
// it: GET next, POST response, POST error, POST init/error.
package runtimeapi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Result is what the function answered to one invocation.
type Result struct {
	Payload []byte
	// Err is set when the function reported an invocation error.
	Err bool
}

type invocation struct {
	id      string
	payload []byte
	done    chan Result
}

// Server serves the Runtime API on a loopback port.
type Server struct {
	// Addr is host:port, the value of AWS_LAMBDA_RUNTIME_API.
	Addr string

	srv     *http.Server
	pending chan *invocation

	mu        sync.Mutex
	seq       int
	inflight  map[string]*invocation
	firstNext time.Time
	ready     chan struct{}
	initErr   chan []byte
}

// Start listens on 127.0.0.1 and serves until Close.
func Start() (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &Server{Addr: ln.Addr().String(), pending: make(chan *invocation), inflight: map[string]*invocation{},
		ready: make(chan struct{}), initErr: make(chan []byte, 1)}
	mux := http.NewServeMux()
	const base = "/2018-06-01/runtime/"
	mux.HandleFunc("GET "+base+"invocation/next", s.next)
	mux.HandleFunc("POST "+base+"invocation/{id}/response", func(w http.ResponseWriter, r *http.Request) { s.finish(w, r, false) })
	mux.HandleFunc("POST "+base+"invocation/{id}/error", func(w http.ResponseWriter, r *http.Request) { s.finish(w, r, true) })
	mux.HandleFunc("POST "+base+"init/error", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		select {
		case s.initErr <- b:
		default:
		}
		w.WriteHeader(http.StatusAccepted)
	})
	s.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go s.srv.Serve(ln)
	return s, nil
}

// Close stops the server.
func (s *Server) Close() error { return s.srv.Close() }

// Ready is closed when the function first asks for an event.
func (s *Server) Ready() <-chan struct{} { return s.ready }

// FirstNext is when the function first asked for an event (zero before).
func (s *Server) FirstNext() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.firstNext
}

// InitError receives the body of a reported init error.
func (s *Server) InitError() <-chan []byte { return s.initErr }

func (s *Server) next(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	if s.firstNext.IsZero() {
		s.firstNext = time.Now()
		close(s.ready)
	}
	s.mu.Unlock()
	var inv *invocation
	select {
	case inv = <-s.pending:
	case <-r.Context().Done():
		return
	}
	h := w.Header()
	h.Set("Lambda-Runtime-Aws-Request-Id", inv.id)
	h.Set("Lambda-Runtime-Deadline-Ms", strconv.FormatInt(time.Now().Add(30*time.Second).UnixMilli(), 10))
	h.Set("Lambda-Runtime-Invoked-Function-Arn", "arn:aws:lambda:us-east-1:123456789012:function:planwarden-local")
	h.Set("Lambda-Runtime-Trace-Id", "Root=1-00000000-000000000000000000000000;Sampled=0")
	h.Set("Content-Type", "application/json")
	w.Write(inv.payload)
}

func (s *Server) finish(w http.ResponseWriter, r *http.Request, isErr bool) {
	id := r.PathValue("id")
	s.mu.Lock()
	inv := s.inflight[id]
	delete(s.inflight, id)
	s.mu.Unlock()
	if inv == nil {
		http.Error(w, "unknown invocation "+id, http.StatusBadRequest)
		return
	}
	b, _ := io.ReadAll(r.Body)
	inv.done <- Result{Payload: b, Err: isErr}
	w.WriteHeader(http.StatusAccepted)
}

// Invoke hands payload to the function's next GET next and waits for its
// answer, or for ctx.
func (s *Server) Invoke(ctx context.Context, payload []byte) (Result, error) {
	s.mu.Lock()
	s.seq++
	inv := &invocation{id: fmt.Sprintf("req-%06d", s.seq), payload: payload, done: make(chan Result, 1)}
	s.inflight[inv.id] = inv
	s.mu.Unlock()
	select {
	case s.pending <- inv:
	case <-ctx.Done():
		return Result{}, fmt.Errorf("no runtime asked for the event: %w", ctx.Err())
	}
	select {
	case res := <-inv.done:
		return res, nil
	case <-ctx.Done():
		return Result{}, errors.Join(errors.New("the function did not answer"), ctx.Err())
	}
}
