package parsers

import "testing"

// FuzzArgsPass checks argsPass against the filter it short-cuts: whenever
// argsPass accepts a fragment, the filter, holding nothing, passes it
// through unchanged and holds nothing after it.
func FuzzArgsPass(f *testing.F) {
	for _, s := range []string{
		`{"a": "x\ny\"z\\"}`, `\u00e9`, `\ud83c`, "héllo 世界", "\xff", `ab\`, "\\\xc3\xa9", `\\u`, "",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !argsPass(b) {
			return
		}
		e := &emitter{whole: true, limit: 1 << 20}
		e.reset()
		e.startCall([]byte("f"), nil)
		e.filterArgs(b)
		if e.af.n != 0 || string(e.argBuf) != string(b) {
			t.Fatalf("argsPass(%q) = true, but the filter gave %q holding %d bytes", b, e.argBuf, e.af.n)
		}
	})
}
