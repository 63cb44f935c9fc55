package api

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"hash"
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
	var t turnHash
	if sys, ok := q.r.System.Get(); ok {
		t.str(sys.String)
		for _, b := range sys.Array {
			t.str(b.Text)
		}
	}
	for _, m := range firstUserTurn(q.r.Messages, func(m anthropic.Message) bool { return m.Role == "user" }) {
		t.str(m.Role)
		t.str(m.Content.String)
		for _, b := range m.Content.Array {
			t.str(b.Type())
			if b.OfText != nil {
				t.str(b.OfText.Text)
			}
		}
	}
	return t.key()
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
	var t turnHash
	for _, m := range firstUserTurn(q.r.Messages, func(m openai.Message) bool { return m.Role == "user" }) {
		t.str(m.Role)
		if c, ok := m.Content.Get(); ok {
			t.str(c.String)
			for _, p := range c.Array {
				t.str(p.Type)
				t.str(p.Text)
			}
		}
	}
	return t.key()
}

// SessionKey of Completions is empty: a prompt carries no turns.
func (q completionRequest) SessionKey() string { return "" }

// SessionKey of Responses: prompt_cache_key (Codex sends its session id),
// else the first turn (instructions and the input messages up to and
// including the first user message).
func (q responsesRequest) SessionKey() string {
	if q.r.PromptCacheKey != "" {
		return q.r.PromptCacheKey
	}
	var t turnHash
	if v, ok := q.r.Instructions.Get(); ok {
		t.str(v)
	}
	if in, ok := q.r.Input.Get(); ok {
		t.str(in.String)
		isUser := func(it responses.Item) bool { return it.OfMessage != nil && it.OfMessage.Role == "user" }
		for _, it := range firstUserTurn(in.Array, isUser) {
			if m := it.OfMessage; m != nil {
				t.str(m.ID) // Codex gives its items ids of the session
				t.str(m.Role)
				t.str(m.Content.String)
				for _, p := range m.Content.Array {
					t.str(p.Type)
					t.str(p.Text)
				}
			}
		}
	}
	return t.key()
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

// maxHashedBytes bounds what one string contributes to a first-turn hash:
// a longer one contributes its length and its first and last halves of
// this, so the hash costs and allocates nothing in proportion to the body.
const maxHashedBytes = 64 << 10

// turnHash hashes the strings of a first turn (SHA-256, each string
// length-prefixed, so their boundaries count) without copying them.
type turnHash struct {
	h   hash.Hash
	any bool // a non-empty string was written
	buf [512]byte
}

func (t *turnHash) str(s string) {
	if t.h == nil {
		t.h = sha256.New()
	}
	t.any = t.any || s != ""
	binary.LittleEndian.PutUint64(t.buf[:8], uint64(len(s)))
	t.h.Write(t.buf[:8])
	if len(s) > maxHashedBytes {
		t.write(s[:maxHashedBytes/2])
		t.write(s[len(s)-maxHashedBytes/2:])
		return
	}
	t.write(s)
}

func (t *turnHash) write(s string) {
	for len(s) > 0 {
		n := copy(t.buf[:], s)
		t.h.Write(t.buf[:n])
		s = s[n:]
	}
}

// key is FirstTurnPrefix and 32 hex digits (128 bits of the hash), or ""
// when the turn had no text.
func (t *turnHash) key() string {
	if !t.any {
		return ""
	}
	return FirstTurnPrefix + hex.EncodeToString(t.h.Sum(nil)[:16])
}
