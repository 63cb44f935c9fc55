package server

import (
	"strconv"
)

// checkModelName rejects a model name longer than maxModelNameBytes (a
// 400 each API shapes; the name itself is not echoed).
func checkModelName(model string) error {
	if len(model) <= maxModelNameBytes {
		return nil
	}
	return BadRequest("model: the name is " + strconv.Itoa(len(model)) + " bytes; the limit is " + strconv.Itoa(maxModelNameBytes))
}
