package planparse

import (
	"reflect"
	"unsafe"

	"github.com/planwarden/planwarden/planparse/internal/secret"
)

// secretsOf is what the secret set s holds: each string (a secret or one
// of its forms) and whether it is a secret itself, not only a form. The
// set keeps its map to itself; the tests read it by reflection.
func secretsOf(s *secret.Set) map[string]bool {
	out := map[string]bool{}
	m := reflect.ValueOf(s).Elem().FieldByName("m")
	for it := m.MapRange(); it.Next(); {
		out[it.Key().String()] = it.Value().Bool()
	}
	return out
}

// forgetCaches empties the caches of reader notes (what keys and literals
// they judged last), so that two readers' notes compare by what they
// noted.
func forgetCaches(n *secret.Notes) {
	v := reflect.ValueOf(n).Elem()
	for _, name := range []string{"keys", "texts0"} {
		f := v.FieldByName(name)
		reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().SetZero()
	}
}
