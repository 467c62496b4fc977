package github

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/planwarden/planwarden/app/port"
)

// onlyReader hides bytes.Reader's WriterTo: a body as the network gives it.
type onlyReader struct{ io.Reader }

// An artifact's download charges every buffer before it allocates it: the
// length the blob store declares at once, a body longer than it declared
// or of no declared length as it grows (a buffer grown out of is given
// back); a charge refused ends the download with the charge's error before
// the buffer exists.
func TestAnArtifactDownloadIsChargedBeforeItsBuffersExist(t *testing.T) {
	t.Parallel()
	body := bytes.Repeat([]byte("PK"), 3<<20) // 6 MiB
	const limit = 10 << 20
	refuse := errors.New("over the worker's budget")
	tests := map[string]struct {
		declared int64
		refuseAt int64 // refuse a charge once this much was charged; 0: never
		wantErr  error
		// wantFirst is the first charge: before anything is read.
		wantFirst int64
	}{
		"declared length: charged at once":                      {declared: int64(len(body)), wantFirst: int64(len(body)) + 1},
		"no declared length: charged as it grows":               {declared: -1, wantFirst: firstChunk},
		"declares less than it holds: the rest charged as read": {declared: 1 << 10, wantFirst: 1<<10 + 1},
		"declares more than the limit: refused unread":          {declared: limit + 1, wantErr: port.ErrTooLarge},
		"a charge refused ends the download":                    {declared: -1, refuseAt: 2 << 20, wantErr: refuse, wantFirst: firstChunk},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var charges []int64
			var held int64 // charged, less what was given back
			charge := func(n int64) error {
				if tc.refuseAt > 0 && held+n > tc.refuseAt {
					return refuse
				}
				charges = append(charges, n)
				held += n
				return nil
			}
			data, err := readCharged(onlyReader{bytes.NewReader(body)}, tc.declared, limit, charge)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("err %v; want %v", err, tc.wantErr)
			}
			if tc.wantFirst > 0 && (len(charges) == 0 || charges[0] != tc.wantFirst) {
				t.Errorf("charges %v; want the first of %d", charges, tc.wantFirst)
			}
			if err != nil {
				if held > max(tc.refuseAt, 0) {
					t.Errorf("charged %d bytes before refusing; want at most %d", held, tc.refuseAt)
				}
				return
			}
			if !bytes.Equal(data, body) {
				t.Fatalf("read %d bytes; want the body's %d", len(data), len(body))
			}
			// What is held is charged; the buffers grown out of were given
			// back.
			if int64(cap(data)) != held {
				t.Errorf("the zip holds %d bytes; %d are charged (charges %v)", cap(data), held, charges)
			}
		})
	}
	// A body longer than the limit is refused, whatever it declared.
	if _, err := readCharged(onlyReader{bytes.NewReader(body)}, -1, 1<<20, func(int64) error { return nil }); !errors.Is(err, port.ErrTooLarge) {
		t.Errorf("a 6 MiB body under a 1 MiB limit: %v; want ErrTooLarge", err)
	}
}
