package server

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"

	"github.com/agentwire/agentwire/preprocess/api"
	"github.com/agentwire/agentwire/preprocess/engine"
)

// SessionConfig configures what the server tells the engine (or the
// router in front of several engines) about the conversation a request
// belongs to. The zero value sends nothing extra; the session id is still
// derived and set as engine.Request.SessionID (a balancer's key).
type SessionConfig struct {
	// Headers are the header names the session id is sent upstream under,
	// each of them (DefaultSessionHeaders: the names the routers read).
	Headers []string

	// ParentHeaders are the header names a subagent's parent session id
	// is sent under (DefaultParentHeaders: Dynamo's). The parent id is
	// Dynamo's X-Dynamo-Parent-Session-ID as sent; Claude Code's
	// x-claude-code-parent-agent-id, else its x-claude-code-session-id when
	// the request is a subagent's (x-claude-code-agent-id); OpenCode's
	// x-parent-session-id; bounded as SessionID bounds a header's id.
	ParentHeaders []string

	// ForwardPrefixes: client request headers whose names start with one
	// of these (case-insensitively) are sent to the engine as they are —
	// routing hints a router reads (DefaultForwardPrefixes). Credentials
	// are never forwarded, whatever the prefixes.
	ForwardPrefixes []string

	// CacheSalt, when not nil, returns the request's cache salt
	// (engine.Request.CacheSalt: vLLM's cache_salt, which keeps the
	// prefix-cache blocks of one tenant from serving another's requests);
	// "" for none.
	CacheSalt func(*Job) string
}

// DefaultSessionHeaders are the session headers the routers in front of
// engines read: Dynamo's frontend (X-Dynamo-Session-ID, with
// --router-session-affinity-ttl-secs), llm-d's router (a session_id
// affinity source configured with the header x-session-id), and SGLang's
// model gateway (X-SMG-Routing-Key, consistent hashing or manual policy).
// llm-d's x-session-token is not among them: its router issues that token
// (an encoded pod name) and reads back only its own. examples/server/README.md,
// "Several replicas, and behind a router" has the versions checked.
var DefaultSessionHeaders = []string{"X-Dynamo-Session-ID", "X-Session-Id", "X-SMG-Routing-Key"}

// DefaultParentHeaders are the parent-session headers: Dynamo's, which
// its router can use to place a subagent's first request.
var DefaultParentHeaders = []string{"X-Dynamo-Parent-Session-ID"}

// parentSessionID returns the session id of the agent that started the
// request's session, for a subagent's requests: Dynamo's
// X-Dynamo-Parent-Session-ID as sent; Claude Code's
// x-claude-code-parent-agent-id, else its x-claude-code-session-id when the
// request is a subagent's (x-claude-code-agent-id); OpenCode's
// x-parent-session-id; else "". Bounded as SessionID.
func parentSessionID(r *Job) string {
	id := strings.TrimSpace(r.Header.Get("X-Dynamo-Parent-Session-Id"))
	if id == "" && r.Header.Get("X-Claude-Code-Agent-Id") != "" {
		id = strings.TrimSpace(cmp.Or(r.Header.Get("X-Claude-Code-Parent-Agent-Id"), r.Header.Get("X-Claude-Code-Session-Id")))
	}
	if id == "" {
		id = strings.TrimSpace(r.Header.Get("X-Parent-Session-Id"))
	}
	if id != "" && (len(id) > maxSessionIDBytes || !printable(id)) {
		sum := sha256.Sum256([]byte(id))
		id = "h-" + hex.EncodeToString(sum[:16])
	}
	return id
}

// DefaultForwardPrefixes are the routing-header prefixes passed through to
// the engine: Dynamo's x-dynamo-* (session, parent session, priority
// hints) and llm-d's x-llm-d-* (fairness id, SLO hints).
var DefaultForwardPrefixes = []string{"X-Dynamo-", "X-Llm-D-"}

// sessionHeaders are the client headers that name the session, in order:
// an explicit Dynamo session, Claude Code's subagent then session id,
// OpenCode's two, Codex's (hyphenated since Codex 0.131, underscored
// before).
var sessionHeaders = []string{
	"X-Dynamo-Session-Id",
	"X-Claude-Code-Agent-Id",
	"X-Claude-Code-Session-Id",
	"X-Session-Affinity",
	"X-Session-Id",
	"Session-Id",
	"Session_id",
}

// maxSessionIDBytes bounds a session id sent upstream: a longer one, or
// one with bytes outside printable ASCII, is replaced by its hash.
const maxSessionIDBytes = 128

// SessionID returns the session id of a request: the first of the
// harnesses' session headers present (X-Dynamo-Session-ID; Claude Code's
// x-claude-code-agent-id for a subagent, else x-claude-code-session-id;
// OpenCode's x-session-affinity and x-session-id; Codex's session-id, or
// session_id before Codex 0.131), else the body's identity
// (api.Request.SessionKey: metadata.user_id, prompt_cache_key, or a hash
// of the first turn), else "". An identity from the body is replaced by
// "h-" and 32 hex digits of its SHA-256 (metadata.user_id names a user:
// it is never sent upstream or logged as it is), and so is a header's
// longer than 128 bytes or not printable ASCII, so the id is a
// valid header value of bounded size.
func SessionID(r *Job) string {
	id := ""
	for _, h := range sessionHeaders {
		if v := strings.TrimSpace(r.Header.Get(h)); v != "" {
			id = v
			break
		}
	}
	fromBody := false
	if id == "" && r.Body != nil {
		id, fromBody = r.Body.SessionKey(), true
	}
	switch {
	case id == "":
		return ""
	case fromBody && !strings.HasPrefix(id, api.FirstTurnPrefix),
		len(id) > maxSessionIDBytes, !printable(id):
		sum := sha256.Sum256([]byte(id))
		id = "h-" + hex.EncodeToString(sum[:16])
	}
	return id
}

func printable(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x21 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// credentialHeaders are never forwarded.
var credentialHeaders = map[string]bool{"Authorization": true, "X-Api-Key": true, "Cookie": true, "Proxy-Authorization": true}

// applySession sets the engine request's session id, session headers,
// forwarded routing headers and cache salt.
func (s *Server) applySession(req *Job, er *engine.Request) {
	c := &s.cfg.Session
	er.SessionID = SessionID(req)
	if c.CacheSalt != nil {
		er.CacheSalt = c.CacheSalt(req)
	}
	var h http.Header
	if len(c.ForwardPrefixes) > 0 {
		for k, v := range req.Header {
			if !credentialHeaders[k] && hasPrefixFold(k, c.ForwardPrefixes) {
				if h == nil {
					h = http.Header{}
				}
				h[k] = v
			}
		}
	}
	if er.SessionID != "" && len(c.Headers) > 0 {
		if h == nil {
			h = make(http.Header, len(c.Headers))
		}
		for _, name := range c.Headers {
			h.Set(name, er.SessionID)
		}
	}
	if len(c.ParentHeaders) > 0 {
		if parent := parentSessionID(req); parent != "" {
			if h == nil {
				h = http.Header{}
			}
			for _, name := range c.ParentHeaders {
				h.Set(name, parent)
			}
		}
	}
	if h == nil {
		return
	}
	for k, v := range er.Header { // the Backend's own win
		h[k] = v
	}
	er.Header = h
}

func hasPrefixFold(k string, prefixes []string) bool {
	for _, p := range prefixes {
		if len(k) >= len(p) && strings.EqualFold(k[:len(p)], p) {
			return true
		}
	}
	return false
}
