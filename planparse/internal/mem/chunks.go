package mem

// Chunks is a list appended to one element at a time, in chunks of growing
// size (Grow) that are never copied: a slice appended to grows by a
// quarter at a time past 256 elements and allocates about five times its
// final size, each step a copy into fresh memory.
type Chunks[T any] struct {
	c [][]T
}

// Add appends x.
func (l *Chunks[T]) Add(x T) {
	l.c = Grow(l.c, 16)
	k := len(l.c) - 1
	l.c[k] = append(l.c[k], x)
}

// AddAll appends o's elements one by one: l is then as if it had had
// them added itself.
func (l *Chunks[T]) AddAll(o *Chunks[T]) {
	o.Each(func(x *T) { l.Add(*x) })
}

// Each calls f with every element, in order.
func (l *Chunks[T]) Each(f func(*T)) {
	for _, c := range l.c {
		for i := range c {
			f(&c[i])
		}
	}
}

// maxChunk is the most elements of a chunk (Grow): a chunk of Changes is
// then 1.6 MB.
const maxChunk = 4096

// Grow returns chunks with room for one more element in its last chunk:
// when the last is full, a new chunk of twice its size (at most maxChunk
// elements; first for the first chunk). Chunks are never copied.
func Grow[T any](chunks [][]T, first int) [][]T {
	k := len(chunks) - 1
	if k < 0 || len(chunks[k]) == cap(chunks[k]) {
		size := first
		if k >= 0 {
			size = min(2*cap(chunks[k]), maxChunk)
		}
		chunks = append(chunks, make([]T, 0, size))
	}
	return chunks
}
