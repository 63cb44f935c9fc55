package anthropic

import (
	"encoding/base64"
	"strings"
	"unicode/utf8"
)

// ThinkingSignaturePrefix starts the signature of a thinking block whose
// reasoning is omitted (ThinkingOmitted): the rest of the signature is the
// block's reasoning text in standard, padded base64. Anthropic carries the
// full reasoning of an omitted block encrypted in its signature, so the
// client's next request holds it; this signature does the same without
// keeping any state on the server, so the reasoning comes back to whichever
// replica serves the next turn, after a restart too, and the chat template
// can replay it (PARSER_CASES.md, "Tool loops").
//
// The prefix is not base64 ('.' and ':' are outside the alphabet), so no
// real Anthropic signature starts with it. Its version changes when the
// encoding does; a signature of an unknown version is a foreign one.
//
// The signature is not a secret nor a proof: a client can write any
// reasoning into it, as it can into a shown thinking block.
const ThinkingSignaturePrefix = "agentwire.thinking.v1:"

// AppendThinkingSignature appends the signature that carries text (the
// prefix and text's base64) to dst. It allocates only to grow dst.
func AppendThinkingSignature(dst, text []byte) []byte {
	dst = append(dst, ThinkingSignaturePrefix...)
	return base64.StdEncoding.AppendEncode(dst, text)
}

// ThinkingSignature returns the signature that carries text.
func ThinkingSignature(text string) string {
	n := len(ThinkingSignaturePrefix) + base64.StdEncoding.EncodedLen(len(text))
	return string(AppendThinkingSignature(make([]byte, 0, n), []byte(text)))
}

// DecodeThinkingSignature returns the reasoning text a signature written by
// AppendThinkingSignature carries, and false for any other signature: a
// real provider's, SignatureErased, one of another version, or one whose
// payload is not canonical base64 — these are opaque signatures, never an
// error. The payload decodes to at most three quarters of its length;
// bytes of it that are not UTF-8 each become U+FFFD, as they would have in
// a shown thinking block.
func DecodeThinkingSignature(sig string) (string, bool) {
	payload, ok := strings.CutPrefix(sig, ThinkingSignaturePrefix)
	if !ok {
		return "", false
	}
	b, err := base64.StdEncoding.Strict().DecodeString(payload)
	if err != nil || base64.StdEncoding.EncodedLen(len(b)) != len(payload) {
		// Not base64, or base64 with line breaks (which the decoder skips):
		// not a signature AppendThinkingSignature wrote.
		return "", false
	}
	if utf8.Valid(b) {
		return string(b), true
	}
	var s strings.Builder
	s.Grow(len(b) + 8)
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n == 1 {
			s.WriteRune(utf8.RuneError)
		} else {
			s.Write(b[:n])
		}
		b = b[n:]
	}
	return s.String(), true
}

// Reasoning returns the reasoning the block holds: its thinking text, or,
// when that is empty (an omitted block sent back), the text its signature
// carries (DecodeThinkingSignature); "" for an empty block with a foreign
// signature.
func (b *ThinkingBlock) Reasoning() string {
	if b.Thinking != "" {
		return b.Thinking
	}
	s, _ := DecodeThinkingSignature(b.Signature)
	return s
}
