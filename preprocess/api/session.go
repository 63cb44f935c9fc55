package api

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"

	"github.com/agentwire/agentwire/protocols/anthropic"
	"github.com/agentwire/agentwire/protocols/openai"
	"github.com/agentwire/agentwire/protocols/responses"
)

// FirstTurnPrefix starts a SessionKey derived from the conversation's first
// turn (a hash), to tell it from an identity the client sent.
const FirstTurnPrefix = "turn-"

// SessionKey of Messages: metadata.user_id (Claude Code sends a JSON
// document whose session_id is the session; that id, else the whole
// string), else the first turn (the system prompt and the messages up to
// and including the first user message).
func (q messagesRequest) SessionKey() string {
	if m := q.r.Metadata; m != nil && m.UserID != "" {
		return userIDSession(m.UserID)
	}
	var sys any
	if v, ok := q.r.System.Get(); ok {
		sys = v
	}
	return firstTurnKey(sys, firstUserTurn(q.r.Messages, func(m anthropic.Message) bool { return m.Role == "user" }))
}

// userIDSession returns the session_id of Claude Code's JSON user_id
// ({"device_id":…,"session_id":…}), else id itself.
func userIDSession(id string) string {
	if strings.HasPrefix(id, "{") {
		var v struct {
			SessionID string `json:"session_id"`
		}
		if json.Unmarshal([]byte(id), &v) == nil && v.SessionID != "" {
			return v.SessionID
		}
	}
	return id
}

// SessionKey of Chat: prompt_cache_key, else the first turn (the messages
// up to and including the first user message: the system and developer
// prompts before it).
func (q chatRequest) SessionKey() string {
	if q.r.PromptCacheKey != "" {
		return q.r.PromptCacheKey
	}
	return firstTurnKey(firstUserTurn(q.r.Messages, func(m openai.Message) bool { return m.Role == "user" }))
}

// SessionKey of Completions is empty: a prompt carries no turns.
func (q completionRequest) SessionKey() string { return "" }

// SessionKey of Responses: prompt_cache_key (Codex sends its session id),
// else the first turn (instructions and the input items up to and
// including the first user message).
func (q responsesRequest) SessionKey() string {
	if q.r.PromptCacheKey != "" {
		return q.r.PromptCacheKey
	}
	var instr any
	if v, ok := q.r.Instructions.Get(); ok {
		instr = v
	}
	var in any
	if v, ok := q.r.Input.Get(); ok {
		if v.IsArray() {
			in = firstUserTurn(v.Array, func(it responses.Item) bool { return it.OfMessage != nil && it.OfMessage.Role == "user" })
		} else {
			in = v.String
		}
	}
	return firstTurnKey(instr, in)
}

// firstUserTurn returns items up to and including the first one isUser
// accepts (all of them when none does).
func firstUserTurn[T any](items []T, isUser func(T) bool) []T {
	for i, it := range items {
		if isUser(it) {
			return items[:i+1]
		}
	}
	return items
}

// firstTurnKey hashes the JSON encoding of parts: FirstTurnPrefix and 32
// hex digits (128 bits of SHA-256). It is "" when there is nothing to
// hash or a part does not encode.
func firstTurnKey(parts ...any) string {
	h := sha256.New()
	enc := json.NewEncoder(h)
	empty := true
	for _, p := range parts {
		if err := enc.Encode(p); err != nil {
			return ""
		}
		if p != nil {
			empty = false
		}
	}
	if empty {
		return ""
	}
	return FirstTurnPrefix + hex.EncodeToString(h.Sum(nil)[:16])
}
