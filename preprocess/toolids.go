package preprocess

import (
	"encoding/json"
	"hash/fnv"
	"strings"

	"github.com/agentwire/agentwire/preprocess/chattemplate"
)

// shortIDProbes are conversations with a tool call and its result under
// the id ID, rendered by probeShortToolIDs with a long and with a short
// id: followed by a user turn, and by an answer (templates that check the
// alternation of user and assistant turns accept one or the other).
var shortIDProbes = []string{
	`[{"role":"user","content":"a"},{"role":"assistant","content":"","tool_calls":[{"id":"ID","type":"function","function":{"name":"f","arguments":{}}}]},{"role":"tool","tool_call_id":"ID","content":"b"},{"role":"user","content":"c"}]`,
	`[{"role":"user","content":"a"},{"role":"assistant","content":"","tool_calls":[{"id":"ID","type":"function","function":{"name":"f","arguments":{}}}]},{"role":"tool","tool_call_id":"ID","content":"b"},{"role":"assistant","content":"c"},{"role":"user","content":"d"}]`,
}

// probeShortToolIDs reports whether the template raises on the tool-call
// ids of an OpenAI client (call_ and 24 hex digits) and of an Anthropic
// one (toolu_ and 32) but renders the same conversation with a
// 9-character alphanumeric id.
func probeShortToolIDs(t *chattemplate.Template) bool {
	for _, probe := range shortIDProbes {
		render := func(id string) bool {
			msgs := strings.ReplaceAll(probe, `"ID"`, `"`+id+`"`)
			_, err := t.Render(chattemplate.Input{Messages: json.RawMessage(msgs), AddGenerationPrompt: true,
				BOSToken: "<s>", EOSToken: "</s>"})
			return err == nil
		}
		if render("a1B2c3D4e") {
			return !render("call_0123456789abcdef01234567") && !render("toolu_0123456789abcdef0123456789abcdef")
		}
	}
	return false
}

// shortToolID returns the 9-character alphanumeric id a template with
// Template.ShortToolIDs gets for a tool-call id: the id itself when it is
// one; else its last nine letters and digits (vLLM truncates a Mistral
// tool-call id to its last nine characters the same way: toolu_ and
// call_ ids end in hex digits); an id with fewer than nine gets them from
// a hash of the whole id. The same id always gives the same result, so a
// call and its result still match.
func shortToolID(id string) string {
	if isShortID(id) {
		return id
	}
	var tail [9]byte
	n := 0
	for i := len(id) - 1; i >= 0 && n < len(tail); i-- {
		if c := id[i]; isAlnum(c) {
			n++
			tail[len(tail)-n] = c
		}
	}
	if n == len(tail) {
		return string(tail[:])
	}
	const digits = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	h := fnv.New64a()
	h.Write([]byte(id))
	v := h.Sum64()
	for i := range tail {
		tail[i] = digits[v%uint64(len(digits))]
		v /= uint64(len(digits))
	}
	return string(tail[:])
}

func isShortID(id string) bool {
	if len(id) != 9 {
		return false
	}
	for i := 0; i < len(id); i++ {
		if !isAlnum(id[i]) {
			return false
		}
	}
	return true
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// toolID is the id the template gets for a tool-call id (ShortToolIDs).
func (t *Template) toolID(id string) string {
	if t.ShortToolIDs && id != "" {
		return shortToolID(id)
	}
	return id
}
