package protocols

import (
	"encoding/json"
	"slices"
)

// Extra holds the members of a JSON object that its Go type does not model,
// keyed by member name, as raw JSON. Every protocol type that can meet fields
// it does not know has an Extra field (`json:"-"`): decoding fills it and
// encoding writes it back after the modelled members, in key order, so a
// request survives decode → encode without losing what made it an Anthropic
// or Responses request. Set a key to add a member; a key that duplicates a
// modelled member produces a duplicate key on output, so do not.
type Extra map[string]json.RawMessage

// Keys returns the member names in sorted order.
func (e Extra) Keys() []string {
	keys := make([]string, 0, len(e))
	for k := range e {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
