package secret

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"runtime"
	"strings"
	"testing"
)

// allocated is the bytes f allocates (runtime.MemStats.TotalAlloc).
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// A base64 value is decoded within a fixed bound whatever its size: a
// 64 MB one (a plan can hold it in user_data or a config map) costs what a
// small one does, not its decoded 48 MB four times over, and a gzip
// stream is read to its cap, not to its end.
func TestBlobDecodingIsBoundedWhateverTheValueHolds(t *testing.T) {
	if DecodeBound > 64<<20 {
		t.Fatalf("DecodeBound is %d MiB; the worker adds it to every job", DecodeBound>>20)
	}
	script := []byte("#!/bin/bash\necho 'start the trainer'\n")
	huge := base64.StdEncoding.EncodeToString(bytes.Repeat(script, 48<<20/len(script)))
	var bomb bytes.Buffer
	zw := gzip.NewWriter(&bomb)
	for range 64 {
		zw.Write(bytes.Repeat([]byte("export A=1\n"), 1<<17)) // 1.4 MB a turn, 92 MB in all
	}
	zw.Close()
	tests := map[string]struct {
		value string
		limit uint64
	}{
		"a 64 MB base64 value":         {value: huge, limit: 1 << 20},
		"gzip+base64 of 92 MB of text": {value: base64.StdEncoding.EncodeToString(bomb.Bytes()), limit: blobBound},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := allocated(func() { DecodeBlob(tc.value) })
			if got > tc.limit {
				t.Errorf("decoding allocated %d MiB; want at most %d MiB", got>>20, tc.limit>>20)
			}
			got = allocated(func() { Has(tc.value, "user_data") })
			if got > tc.limit+8<<20 {
				t.Errorf("judging the value allocated %d MiB; want at most %d MiB", got>>20, (tc.limit+8<<20)>>20)
			}
		})
	}
}

// The honest twin: the blobs real plans hold decode as before, and the
// secret inside is found, in every encoding the detector chooses from the
// alphabet.
func TestSmallBlobsStillDecodeAndTheirSecretsAreFound(t *testing.T) {
	script := "#!/bin/bash\nexport DB_PASS=" + foundSecret + "\n/opt/trainer/start --gpus 8\n"
	wrapped := base64.StdEncoding.EncodeToString([]byte(strings.Repeat(script, 3)))
	for i := 76; i < len(wrapped); i += 77 {
		wrapped = wrapped[:i] + "\n" + wrapped[i:]
	}
	tests := map[string]struct {
		value, want string
	}{
		"standard":           {base64.StdEncoding.EncodeToString([]byte(script)), script},
		"standard, unpadded": {base64.RawStdEncoding.EncodeToString([]byte(script + "x")), script + "x"},
		"URL-safe":           {base64.URLEncoding.EncodeToString([]byte(script + "??>")), script + "??>"},
		"URL-safe, unpadded": {base64.RawURLEncoding.EncodeToString([]byte(script + "??>")), script + "??>"},
		"wrapped at 76":      {wrapped, strings.Repeat(script, 3)},
		"gzip+base64":        {gzipBase64(t, script), script},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, ok := DecodeBlob(tc.value)
			if !ok || got != tc.want {
				t.Fatalf("DecodeBlob = %q, %v; want the script", got, ok)
			}
			if !Has(tc.value, "user_data") {
				t.Errorf("the DB_PASS inside the blob was not found")
			}
		})
	}
	for name, v := range map[string]string{
		"mixed alphabets": "QUJDREVGR0hJSktMTU5PUFFS+-_/",
		"padding inside":  "QUJDREVGR0hJSktM=TU5PUFFSU1RVVldY",
		"not base64":      "this is a sentence, not a blob at all",
	} {
		if got, ok := DecodeBlob(v); ok {
			t.Errorf("%s: DecodeBlob = %q; want no blob", name, got)
		}
	}
}

// foundSecret has no credential shape: only its name or its context gives
// it away, so where it shows again it is found only as a known secret.
const foundSecret = "Hunter2-prod-9x"

func gzipBase64(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(b.Bytes())
}
