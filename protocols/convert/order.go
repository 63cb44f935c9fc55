package convert

import (
	"slices"

	"github.com/agentwire/agentwire/protocols/openai"
)

// orderToolResults puts the tool messages that answer an assistant
// message's tool calls right after it, in the order of its calls.
//
// Clients send parallel tool results in the order the tools finished
// (Claude Code does), and chat templates that pair results with calls by
// position (Qwen3's <tool_response> blocks) would otherwise show the model
// misaligned results. Between an assistant message with tool calls and the
// next assistant message, the tool messages whose tool_call_id names one of
// its calls move to the front, sorted by call index (repeats keep their
// order); every other message (user text sent alongside the results, a
// result for an unknown id) follows in its original order. msgs is
// reordered in place.
func orderToolResults(msgs []openai.Message) {
	for i := 0; i < len(msgs); i++ {
		calls := msgs[i].ToolCalls
		if msgs[i].Role != openai.RoleAssistant || len(calls) == 0 {
			continue
		}
		end := i + 1
		for end < len(msgs) && msgs[end].Role != openai.RoleAssistant {
			end++
		}
		seg := msgs[i+1 : end]
		rank := func(m *openai.Message) int {
			if m.Role != openai.RoleTool {
				return len(calls)
			}
			for k := range calls {
				if calls[k].ID == m.ToolCallID {
					return k
				}
			}
			return len(calls)
		}
		sorted := true
		for k := 1; k < len(seg); k++ {
			if rank(&seg[k-1]) > rank(&seg[k]) {
				sorted = false
				break
			}
		}
		if !sorted {
			slices.SortStableFunc(seg, func(a, b openai.Message) int { return rank(&a) - rank(&b) })
		}
		i = end - 1
	}
}
