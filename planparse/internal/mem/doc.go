// Package mem holds planparse's containers of bounded memory: Memo, a
// fixed table of slots that remembers answers by string key, and Chunks, a
// list grown in chunks that are never copied.
package mem
