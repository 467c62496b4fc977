package reportjson

import (
	"reflect"
	"sync/atomic"
)

// chunk is what the second goroutine of listConcurrently encoded: the
// bytes of some elements, the offsets at which elements would have
// flushed (after each element, and after each element of a list inside
// one), and the error of the element after the last one (nil when every
// element was written).
type chunk struct {
	out      []byte
	points   []int
	err      error
	panicked any // what the encoding of the element after the last point panicked with
}

// listConcurrently writes the elements of a long list as elements does,
// on two goroutines that take the chunks of the policy's Batch elements in turn,
// whichever comes first: a second one encodes the chunks it takes into
// buffers it hands over in order, while this one encodes the chunks it
// takes and, between them, appends the second one's bytes up to each
// point where elements would have flushed, flushing there as elements
// does (this one also copies, so it takes fewer). So the writes to w
// are the serial ones, byte for byte and cut at the same places, even
// when an element cannot be encoded (what was written before its error is
// written, and the error returned).
func (e *encoder) listConcurrently(v reflect.Value, inner string) error {
	n := v.Len()
	grain := e.pol.Batch()
	chunks := (n + grain - 1) / grain
	var next atomic.Int64 // the first chunk neither goroutine took
	ready := make(chan *chunk, 2)
	free := make(chan *chunk, 4)
	stop, exited := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(exited)
		o := &encoder{marshals: map[reflect.Type]marshaling{}, record: true, pol: e.pol}
		defer func() {
			// An element whose encoding panics panics in Write's
			// caller when its turn comes, after what would have been
			// written before it, as on one goroutine.
			if p := recover(); p != nil {
				select {
				case ready <- &chunk{out: o.out, points: o.points, panicked: p}:
				case <-stop:
				}
			}
		}()
		for {
			k := int(next.Add(1)) - 1
			if k >= chunks {
				return
			}
			var c *chunk
			select {
			case c = <-free:
			default:
				c = &chunk{out: make([]byte, 0, flushAt+4<<10)}
			}
			o.out, o.points, c.err = c.out[:0], c.points[:0], nil
			for i := k * grain; i < min(n, (k+1)*grain); i++ {
				if i > 0 {
					o.byte(',')
				}
				o.newline(inner)
				if c.err = o.value(v.Index(i), inner); c.err != nil {
					break
				}
				o.wrote()
			}
			c.out, c.points = o.out, o.points
			select {
			case ready <- c:
			case <-stop:
				return
			}
			if c.err != nil {
				return
			}
		}
	}()
	defer func() { close(stop); <-exited }()
	for k := 0; k < chunks; k++ {
		if next.CompareAndSwap(int64(k), int64(k+1)) {
			if err := e.elements(v, k*grain, min(n, (k+1)*grain), inner); err != nil {
				return err
			}
			continue
		}
		c := <-ready
		start := 0
		for _, end := range c.points {
			e.out = append(e.out, c.out[start:end]...)
			start = end
			e.wrote()
		}
		if c.panicked != nil {
			panic(c.panicked)
		}
		if c.err != nil {
			return c.err
		}
		select {
		case free <- c:
		default:
		}
	}
	return nil
}
