package engine

import "strconv"

var finishNames = [...]string{"none", "eos", "stop", "length", "cancelled", "content_filter", "error"}

// String returns the finish's name ("eos", "stop", "length", …).
func (f Finish) String() string {
	if int(f) < len(finishNames) {
		return finishNames[f]
	}
	return "Finish(" + strconv.Itoa(int(f)) + ")"
}
