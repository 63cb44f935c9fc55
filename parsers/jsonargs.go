package parsers

// jsonArgs streams one JSON arguments object as the model's own bytes
// (PARSER_CASES.md) for grammars whose markers, not a JSON envelope, frame
// the call (DeepSeek V3/V3.1, Kimi K2): leading whitespace is skipped, the
// value must be an object, raw control characters inside strings are
// escaped, and the bytes after the closing brace are left to the caller.
//
// The fragments alias the input, so the caller's call must be started before
// feed is called.
type jsonArgs struct {
	out     *sink
	vs      jsonScan
	started bool // the opening brace was seen
}

func (a *jsonArgs) begin() {
	a.vs.reset()
	a.started = false
}

// feed consumes argument bytes from b and streams them to the open call. It
// reports jcMore (all of b consumed, the object is not complete), jcEnd (the
// object closed after n bytes) or jcBad (b[n-1], or b[n] before the object
// opened, is not valid there).
func (a *jsonArgs) feed(b []byte) (int, jcResult) {
	i := 0
	if !a.started {
		i = spaceLen(b)
		if i == len(b) {
			return i, jcMore
		}
		if b[i] != '{' {
			return i, jcBad
		}
		a.started = true
	}
	for i < len(b) {
		n, r := a.vs.scan(b[i:])
		if r == scanCtrl {
			a.out.ctrlArgs(b[i : i+n])
		} else {
			a.out.args(b[i : i+n])
		}
		i += n
		switch r {
		case scanDone:
			return i, jcEnd
		case scanErr:
			return i, jcBad
		}
	}
	return i, jcMore
}
