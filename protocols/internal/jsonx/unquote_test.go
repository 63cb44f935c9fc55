package jsonx

import (
	"encoding/json"
	"testing"
)

// FuzzAppendUnquoted: decoding a JSON string's content in pieces of any
// size gives what encoding/json gives for the whole string.
func FuzzAppendUnquoted(f *testing.F) {
	f.Add(`"a\nb\u00e9\ud83d\ude00\"x\\"`, uint8(1))
	f.Add(`"\ud83dz\udc00"`, uint8(3))
	f.Add(`"*** Begin Patch\n*** Add File: a.go\n+package a\n*** End Patch"`, uint8(7))
	f.Fuzz(func(t *testing.T, quoted string, step uint8) {
		var want string
		if err := json.Unmarshal([]byte(quoted), &want); err != nil || len(quoted) < 2 || quoted[0] != '"' {
			return
		}
		n := int(step)%9 + 1
		src := []byte(quoted[1:])
		var got, pend []byte
		closed := false
		for len(src) > 0 && !closed {
			k := min(n, len(src))
			pend = append(pend, src[:k]...)
			src = src[k:]
			var used int
			var st UnquoteState
			got, used, st = AppendUnquoted(got, pend)
			pend = append(pend[:0], pend[used:]...)
			switch st {
			case UnquoteClosed:
				closed = true
			case UnquoteInvalid:
				t.Fatalf("%q: invalid", quoted)
			}
		}
		if !closed {
			t.Fatalf("%q: not closed", quoted)
		}
		if string(got) != want && json.Valid([]byte(want)) {
			var w2 string
			_ = json.Unmarshal(AppendString(nil, got), &w2)
			if w2 != want {
				t.Fatalf("%q in pieces of %d: %q, want %q", quoted, n, got, want)
			}
		}
	})
}
