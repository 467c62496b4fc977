package github

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"

	"github.com/planwarden/planwarden/app/port"
)

func (g *ghAdapter) DownloadArtifact(ctx context.Context, r port.Repo, id int64, maxBytes int64, charge func(int64) error) ([]byte, error) {
	u, resp, err := g.c.Actions.DownloadArtifact(ctx, r.Owner, r.Name, id, 1)
	if err != nil {
		if resp != nil && resp.Response != nil {
			// go-github says only "unexpected status code" here.
			err = &statusError{resp: resp.Response, err: err}
		}
		return nil, fmt.Errorf("download artifact %d: %w", id, notFound(resp, err))
	}
	if err := plainHTTP(g.in.baseURL, u); err != nil {
		return nil, fmt.Errorf("download artifact %d: %w", id, err)
	}
	// A fresh request: the blob store's signed URL must not see our token.
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("download artifact %d: %w", id, err)
	}
	blob, err := g.download.Do(req)
	if err != nil {
		// The URL is signed; do not print it.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fmt.Errorf("download artifact %d from blob storage: %w", id, err)
	}
	defer blob.Body.Close()
	if blob.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("download artifact %d from blob storage: %s", id, blob.Status)
	}
	data, err := readCharged(blob.Body, blob.ContentLength, maxBytes, charge)
	if errors.Is(err, port.ErrTooLarge) {
		return nil, fmt.Errorf("artifact %d: zip is larger than %d bytes: %w", id, maxBytes, err)
	}
	if err != nil {
		return nil, fmt.Errorf("download artifact %d: %w", id, err)
	}
	return data, nil
}

// firstChunk is the first buffer of a body whose length is not declared.
const firstChunk = 256 << 10

// readCharged reads body, at most maxBytes (port.ErrTooLarge beyond),
// into buffers charged before they are allocated: one of the declared
// length (refused at once over maxBytes) when it is declared, else
// doubling from firstChunk, each capped at maxBytes+1, a buffer grown out
// of given back (a negative charge) once copied. A body longer than it
// declared is read on into charged growth, a shorter one ends where it
// ends.
func readCharged(body io.Reader, declared, maxBytes int64, charge func(int64) error) ([]byte, error) {
	if declared > maxBytes {
		return nil, port.ErrTooLarge
	}
	size := int64(firstChunk)
	if declared >= 0 {
		size = declared + 1 // the extra byte sees a body longer than declared
	}
	size = min(size, maxBytes+1)
	if err := charge(size); err != nil {
		return nil, err
	}
	buf := make([]byte, size)
	n := 0
	for {
		m, err := io.ReadFull(body, buf[n:])
		n += m
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return buf[:n], nil
		}
		if err != nil {
			return nil, err
		}
		if int64(n) > maxBytes {
			return nil, port.ErrTooLarge
		}
		// The new buffer is charged whole (the old one is held while it
		// is copied), and the old one given back once it is let go.
		size := min(2*int64(len(buf)), maxBytes+1)
		if err := charge(size); err != nil {
			return nil, err
		}
		next := make([]byte, size)
		copy(next, buf)
		old := int64(len(buf))
		buf = next
		if err := charge(-old); err != nil {
			return nil, err
		}
	}
}
