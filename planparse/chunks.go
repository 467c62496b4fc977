package planparse

// chunks is a list appended to one element at a time, in chunks of growing
// size (grow) that are never copied: a slice appended to grows by a
// quarter at a time past 256 elements and allocates about five times its
// final size, each step a copy into fresh memory.
type chunks[T any] struct {
	c [][]T
}

// add appends x.
func (l *chunks[T]) add(x T) {
	l.c = grow(l.c, 16)
	k := len(l.c) - 1
	l.c[k] = append(l.c[k], x)
}

// addAll appends o's elements one by one: l is then as if it had had
// them added itself.
func (l *chunks[T]) addAll(o *chunks[T]) {
	o.each(func(x *T) { l.add(*x) })
}

// each calls f with every element, in order.
func (l *chunks[T]) each(f func(*T)) {
	for _, c := range l.c {
		for i := range c {
			f(&c[i])
		}
	}
}
