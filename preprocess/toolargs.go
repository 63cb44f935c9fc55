package preprocess

import (
	"encoding/json"
	"reflect"
	"sync"

	"github.com/agentwire/agentwire/preprocess/api"
)

// ToolArgs remembers the exact argument text the server emitted for the
// Anthropic tool_use ids it minted. An Anthropic client holds a call's
// input only as an object and sends it back re-serialised (compactly, by
// a JavaScript client), so the model's own spelling of the arguments
// ({"command": "ls"} with its spaces, its key order, its number forms) is
// gone; with the text kept under the id, the next turn hands the template
// the model's bytes and the prompt keeps the engine's prefix cache. A miss
// (another server, an evicted or edited call) falls back to the client's
// object, whose tojson is the canonical form templates print.
//
// The cache holds at most its capacity of entries (the oldest is evicted
// first) of at most api.MaxToolArgsBytes each. It is safe for concurrent use.
type ToolArgs struct {
	mu    sync.Mutex
	m     map[string]string
	order []string // ring of ids, oldest at next
	next  int
}

// NewToolArgs returns a cache of n entries (n ≥ 1).
func NewToolArgs(n int) *ToolArgs {
	return &ToolArgs{m: make(map[string]string, n), order: make([]string, 0, max(n, 1))}
}

// Put records the argument text emitted for the call id. Empty ids and
// texts longer than api.MaxToolArgsBytes are ignored.
func (c *ToolArgs) Put(id string, args []byte) {
	if c == nil || id == "" || len(args) > api.MaxToolArgsBytes {
		return
	}
	text := string(args)
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[id]; ok {
		c.m[id] = text
		return
	}
	if len(c.order) < cap(c.order) {
		c.order = append(c.order, id)
	} else {
		delete(c.m, c.order[c.next])
		c.order[c.next] = id
		c.next = (c.next + 1) % len(c.order)
	}
	c.m[id] = text
}

// Get returns the argument text emitted for id.
func (c *ToolArgs) Get(id string) (string, bool) {
	if c == nil {
		return "", false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.m[id]
	return s, ok
}

// Len returns the number of entries.
func (c *ToolArgs) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

// sameJSON reports whether a and b are JSON texts of one value (object
// key order, spacing and number spelling aside).
func sameJSON(a, b string) bool {
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}
