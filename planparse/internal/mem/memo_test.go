package mem

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

func TestMemo(t *testing.T) {
	t.Parallel()
	m := NewMemo[int](8, 16)
	if _, ok := m.Get("a"); ok {
		t.Error("an empty memo answers")
	}
	buf := []byte("region-eastus")
	k := string(buf[:6]) // a view: put keeps a copy
	m.Put(k, 1)
	buf[0] = 'X'
	if v, ok := m.Get("region"); !ok || v != 1 {
		t.Errorf("get(region) = %v, %v; want 1, true", v, ok)
	}
	m.Put("region", 2)
	if v, _ := m.Get("region"); v != 2 {
		t.Errorf("after a second put, get(region) = %v; want 2", v)
	}
	long := strings.Repeat("k", 17)
	m.Put(long, 3)
	if _, ok := m.Get(long); ok {
		t.Error("a key longer than the memo keeps was kept")
	}
	// Bounded: never more entries than slots, however many keys.
	for i := range 1000 {
		m.Put(fmt.Sprintf("key-%d", i), i)
	}
	kept := 0
	for i := range m.slots {
		if e := m.slots[i].Load(); e != nil {
			kept++
			if v, ok := m.Get(e.key); !ok || v != e.val {
				t.Errorf("slot %d holds %q=%d but get answers %d, %v", i, e.key, e.val, v, ok)
			}
		}
	}
	if kept > len(m.slots) || kept == 0 {
		t.Errorf("%d entries kept in %d slots", kept, len(m.slots))
	}
	// Only ever the answer put for the key itself, never another key's.
	for i := range 1000 {
		if v, ok := m.Get(fmt.Sprintf("key-%d", i)); ok && v != i {
			t.Errorf("key-%d answers %d", i, v)
		}
	}
}

// TestMemoConcurrent: readers and writers of one memo (run with -race).
func TestMemoConcurrent(t *testing.T) {
	t.Parallel()
	m := NewMemo[string](64, 32)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 2000 {
				k := fmt.Sprintf("k%d", (i*7+g)%300)
				if v, ok := m.Get(k); ok && v != k {
					t.Errorf("%s answers %s", k, v)
					return
				}
				m.Put(k, k)
			}
		}()
	}
	wg.Wait()
}
