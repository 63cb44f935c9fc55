package anthropic

import (
	"errors"
	"strconv"

	"github.com/agentwire/agentwire/protocols/internal/jsonx"
	"github.com/agentwire/agentwire/protocols/internal/wire"
)

// toolResultTags are the block types the API accepts inside a tool_result's
// content. Blocks this package models that are not among them (tool_result,
// tool_use, thinking, …) are rejected there with the API's message; unknown
// types are kept, as everywhere.
const toolResultTags = "'document', 'image', 'search_result', 'text', 'tool_reference'"

// nestedBlockError rejects a block type inside a tool_result's content.
// Rejecting it before the block is decoded is what keeps decoding linear:
// a tool_result inside a tool_result inside … would otherwise be read once
// per level.
type nestedBlockError struct{ typ string }

func (e *nestedBlockError) Error() string {
	return "Input tag '" + wire.Clip(e.typ, wire.MaxQuoted) +
		"' found using 'type' does not match any of the expected tags: " + toolResultTags
}

// checkToolResultContent looks at the types of the blocks in the "content"
// member of the tool_result object data, without decoding them.
func checkToolResultContent(data []byte) error {
	return jsonx.Members(data, func(key, value []byte) error {
		if string(key) != "content" || jsonx.Kind(value) != '[' {
			return nil
		}
		return jsonx.Elements(value, func(elem []byte) error {
			if jsonx.Kind(elem) != '{' {
				return nil // the block decoder reports it
			}
			typ, err := wire.PeekType(elem)
			if err != nil {
				return nil
			}
			if rejectedInToolResult(typ) {
				return &nestedBlockError{typ: typ}
			}
			return nil
		})
	})
}

// nestedBlockPath finds the path of the first rejected block in a request
// body ("messages.3.content.0.content.1") for the error message. It runs
// only on that error.
func nestedBlockPath(body []byte) string {
	path := "messages"
	_ = jsonx.Members(body, func(key, msgs []byte) error {
		if string(key) != "messages" || jsonx.Kind(msgs) != '[' {
			return nil
		}
		i := 0
		return jsonx.Elements(msgs, func(msg []byte) error {
			defer func() { i++ }()
			if jsonx.Kind(msg) != '{' {
				return nil
			}
			return jsonx.Members(msg, func(key, content []byte) error {
				if string(key) != "content" || jsonx.Kind(content) != '[' {
					return nil
				}
				j := 0
				return jsonx.Elements(content, func(block []byte) error {
					defer func() { j++ }()
					if t, _ := wire.PeekType(block); t != BlockToolResult {
						return nil
					}
					if err := checkToolResultContent(block); err != nil {
						k := 0
						_ = jsonx.Members(block, func(key, inner []byte) error {
							if string(key) != "content" {
								return nil
							}
							return jsonx.Elements(inner, func(b []byte) error {
								if t, _ := wire.PeekType(b); rejectedInToolResult(t) {
									return errStop
								}
								k++
								return nil
							})
						})
						path = "messages." + strconv.Itoa(i) + ".content." + strconv.Itoa(j) + ".content." + strconv.Itoa(k)
						return errStop
					}
					return nil
				})
			})
		})
	})
	return path
}

var errStop = errors.New("stop")

func rejectedInToolResult(typ string) bool {
	switch typ {
	case BlockToolResult, BlockToolUse, BlockThinking, BlockRedactedThinking,
		BlockServerToolUse, BlockWebSearchToolResult:
		return true
	}
	return false
}
