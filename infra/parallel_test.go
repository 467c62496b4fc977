package infra

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/planwarden/planwarden/planparse"
	"github.com/planwarden/planwarden/planparse/plantest"
)

// A plan analysed in parts on separate goroutines gives what one pass
// gives: the same resources in plan order, every field, tag and label
// the same. Run it with -race: the parts read
// one plan (its values, member cache, secret set and state indexes) at
// once.
func TestAnalyzeInPartsIsOnePass(t *testing.T) {
	t.Parallel()
	plans := map[string][]byte{
		"brownfield": plantest.Clusters(8199),
		"fleet":      plantest.Large(3000),
		"big":        bigPlan(3000),
	}
	files, _ := filepath.Glob("../../shared/corpus/plans/*/*.json")
	for i, f := range files {
		if i%8 != 0 { // a sample: every plan is in TestCorpusPricedShare
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		plans[filepath.Base(filepath.Dir(f))+"/"+filepath.Base(f)] = data
	}
	for name, data := range plans {
		p, err := planparse.Parse(name, data)
		if err != nil {
			continue // the corpus keeps some broken plans
		}
		one := analyzeParts(p, DefaultCatalog(), Options{}, 1)
		for _, parts := range []int{2, 3} {
			got := analyzeParts(p, DefaultCatalog(), Options{}, parts)
			if want, have := render(t, one), render(t, got); want != have {
				t.Errorf("%s in %d parts: resources differ from one pass\n%s", name, parts, firstDiff(want, have))
			}
		}
	}
}

// render is every resource as JSON, with its sides' tags and labels.
func render(t *testing.T, rs []*Resource) string {
	t.Helper()
	type view struct {
		R                                                *Resource
		BeforeTags, BeforeLabels, AfterTags, AfterLabels map[string]string
	}
	out := make([]view, len(rs))
	for i, r := range rs {
		out[i].R = r
		if r.Before != nil {
			out[i].BeforeTags, out[i].BeforeLabels = r.Before.Tags(), r.Before.Labels()
		}
		if r.After != nil {
			out[i].AfterTags, out[i].AfterLabels = r.After.Tags(), r.After.Labels()
		}
	}
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return fmt.Sprintf("at byte %d: %.200q\nvs %.200q", i, a[max(0, i-100):], b[max(0, i-100):])
}
