package run

import (
	"archive/zip"
	"bytes"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/planwarden/planwarden/app/githubtest"
)

func openedOf(t *testing.T, data []byte) openedZip {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	return openedZip{data: data, zr: zr}
}

// A plan's changes are charged before it is parsed, by its count of
// "address" members: a plan of 20,000 small changes holds more reviewed
// than three times its bytes. The honest twin: a plan of as many bytes
// in one change is charged for one.
func TestAPlanIsChargedForItsChangesBeforeTheyAreParsed(t *testing.T) {
	t.Parallel()
	many := githubtest.ManyChanges(t, 20_000)
	z := openedOf(t, many)
	size := int(z.zr.File[0].UncompressedSize64)
	if got, want := changesCost([]openedZip{z}, 1<<30), int64(20_000*addressCost); got != want {
		t.Errorf("a plan of 20,000 changes is charged %d KiB for them; want %d KiB", got>>10, want>>10)
	}

	var one bytes.Buffer
	zw := zip.NewWriter(&one)
	w, _ := zw.Create("plan.json")
	head := `{"format_version":"1.2","resource_changes":[{"address":"aws_instance.gpu","mode":"managed","type":"aws_instance","name":"gpu","change":{"actions":["create"],"before":null,"after":{"description":"`
	w.Write([]byte(head + strings.Repeat("x", size-len(head)-20) + `"},"after_unknown":{}}}]}`))
	zw.Close()
	if got := changesCost([]openedZip{openedOf(t, one.Bytes())}, 1<<30); got != addressCost {
		t.Errorf("a plan of one change is charged %d bytes for its changes; want %d, one change's", got, addressCost)
	}

	// Counted across reads of any size, and only as far as the limit.
	plan := strings.Repeat(`{"address":"a"},`, 1000)
	for _, r := range map[string]func() int64{
		"one byte a read": func() int64 {
			n, _ := countAddresses(iotest.OneByteReader(strings.NewReader(plan)), make([]byte, 64))
			return n
		},
		"half a read": func() int64 {
			n, _ := countAddresses(iotest.HalfReader(strings.NewReader(plan)), make([]byte, 100))
			return n
		},
		"a buffer of 9":   func() int64 { n, _ := countAddresses(strings.NewReader(plan), make([]byte, 9)); return n },
		"all in one read": func() int64 { n, _ := countAddresses(strings.NewReader(plan), make([]byte, 1<<20)); return n },
	} {
		if got := r(); got != 1000 {
			t.Errorf("counted %d addresses; want 1000", got)
		}
	}
	if got := changesCost([]openedZip{z}, int64(size/2)); got < 9_000*addressCost || got > 11_000*addressCost {
		t.Errorf("counting half the plan (the limit) charged %d KiB; want about half of 20,000 KiB", got>>10)
	}
}
