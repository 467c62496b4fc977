package secret

import (
	"crypto/sha256"
	"math/bits"
	"math/rand/v2"

	"github.com/planwarden/planwarden/planparse/internal/jsonscan"
)

// blobSecrets are the secrets of a set longer than maxFormsLen (a user_data
// script, a bundle of certificates under a secret name), known by their
// length and SHA-256 instead of a copy: a 64 MB secret costs 40 bytes, not
// 64 MB more. A string is such a secret when its length and digest match
// one; it holds one when a window of it does. A window is first matched by
// a rolling hash (Rabin-Karp, modulo 2^61-1 with a base chosen at random
// per process, so a plan cannot aim collisions at it), then by its digest.
type blobSecrets struct {
	sums map[blobSum]struct{}
	lens map[int]*blobLen // the rolling hashes of the secrets of each length
}

type blobSum struct {
	n   int
	sum [sha256.Size]byte
}

type blobLen struct {
	pow   uint64              // rollBase^(n-1), which takes a byte out of a window
	rolls map[uint64]struct{} // the rolling hashes of the secrets of this length
}

// rollMod is the rolling hash's modulus, the prime 2^61-1.
const rollMod = 1<<61 - 1

// rollBase is the rolling hash's base, chosen per process.
var rollBase = 256 + rand.Uint64N(rollMod-512)

func mulMod(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	r := (hi<<3 | lo>>61) + lo&rollMod
	if r >= rollMod {
		r -= rollMod
	}
	return r
}

func rollIn(h uint64, c byte) uint64 {
	h = mulMod(h, rollBase) + uint64(c)
	if h >= rollMod {
		h -= rollMod
	}
	return h
}

func roll(s string) uint64 {
	h := uint64(0)
	for i := 0; i < len(s); i++ {
		h = rollIn(h, s[i])
	}
	return h
}

func blobDigest(x string) blobSum {
	return blobSum{n: len(x), sum: sha256.Sum256(jsonscan.Bytes(x))}
}

// add records x (it keeps no reference to it); false if it was known.
func (b *blobSecrets) add(x string) bool {
	k := blobDigest(x)
	if _, ok := b.sums[k]; ok {
		return false
	}
	if b.sums == nil {
		b.sums, b.lens = map[blobSum]struct{}{}, map[int]*blobLen{}
	}
	b.sums[k] = struct{}{}
	l := b.lens[len(x)]
	if l == nil {
		pow := uint64(1)
		for range len(x) - 1 {
			pow = mulMod(pow, rollBase)
		}
		l = &blobLen{pow: pow, rolls: map[uint64]struct{}{}}
		b.lens[len(x)] = l
	}
	l.rolls[roll(x)] = struct{}{}
	return true
}

// is reports whether str is one of the secrets.
func (b *blobSecrets) is(str string) bool {
	if b.lens[len(str)] == nil {
		return false
	}
	_, ok := b.sums[blobDigest(str)]
	return ok
}

// containedIn calls hit with a view of str for each secret str holds
// (once per secret, at its first place; proper: secrets shorter than str
// only), until hit returns false. It returns false when hit did.
func (b *blobSecrets) containedIn(str string, proper bool, hit func(string) bool) bool {
	for n, l := range b.lens {
		if n > len(str) || proper && n == len(str) {
			continue
		}
		// A rolling hash seen once is judged once: a string repeating a
		// window costs one digest, not one per place.
		judged := map[uint64]struct{}{}
		h := roll(str[:n])
		for i := 0; ; i++ {
			if _, ok := l.rolls[h]; ok {
				if _, was := judged[h]; !was {
					judged[h] = struct{}{}
					if b.is(str[i:i+n]) && !hit(str[i:i+n]) {
						return false
					}
				}
			}
			if i+n >= len(str) {
				break
			}
			h += rollMod - mulMod(uint64(str[i]), l.pow)
			if h >= rollMod {
				h -= rollMod
			}
			h = rollIn(h, str[i+n])
		}
	}
	return true
}
