package anthropic_test

import (
	"encoding/base64"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/anthropic"
	. "github.com/agentwire/agentwire/protocols/internal/testutil"
)

// TestThinkingSignature: the signature of an omitted thinking block
// carries its text and decodes back to it; every other signature is
// opaque.
func TestThinkingSignature(t *testing.T) {
	for _, text := range []string{"", "plan", "I should list the files first.\n", "héllo \u2028 <b> \"q\" \\ 🙂", strings.Repeat("long reasoning ", 5000)} {
		sig := anthropic.ThinkingSignature(text)
		if !strings.HasPrefix(sig, anthropic.ThinkingSignaturePrefix) {
			t.Errorf("%.20q: signature %.40q lacks the prefix", text, sig)
		}
		if got := string(anthropic.AppendThinkingSignature([]byte("x"), []byte(text))); got != "x"+sig {
			t.Errorf("%.20q: AppendThinkingSignature %.40q, want x%.40q", text, got, sig)
		}
		got, ok := anthropic.DecodeThinkingSignature(sig)
		if !ok || got != text {
			t.Errorf("%.20q: decodes to %.20q, %v", text, got, ok)
		}
		b := anthropic.ThinkingBlock{Signature: sig}
		if b.Reasoning() != text {
			t.Errorf("%.20q: ThinkingBlock.Reasoning %.20q", text, b.Reasoning())
		}
	}
	// Bytes that are not UTF-8 come back as U+FFFD each, as a shown block
	// would have carried them.
	if got, ok := anthropic.DecodeThinkingSignature(anthropic.ThinkingSignature("a\xff\xfeb\xe2\x82")); !ok || got != "a\uFFFD\uFFFDb\uFFFD\uFFFD" {
		t.Errorf("invalid UTF-8 decodes to %q, %v", got, ok)
	}
	p := anthropic.ThinkingSignaturePrefix
	for _, sig := range []string{
		"", anthropic.SignatureErased,
		// A real Anthropic signature: base64 only.
		"EqQBCkgIBxABGAIiQL2B3vJ7uS7lq1Nf8y3Z0x+Kk4aQ0W1mJ6fWq8n6ZQ9O1p7xQ==",
		"agentwire.thinking.v2:" + base64.StdEncoding.EncodeToString([]byte("plan")),
		"agentwire.reasoning.v1:" + base64.StdEncoding.EncodeToString([]byte("plan")),
		p + "cGxhbg",           // unpadded
		p + "cGxhbm==",         // non-zero padding bits
		p + "cGxh\nbg==",       // a line break, which the decoder would skip
		p + "cGxhbg==\r\n",     // trailing line break
		p + "!!!!",             // not base64
		p + "cGxhbg==cGxhbg==", // padding inside
		" " + p + "cGxhbg==",   // not at the start
	} {
		if got, ok := anthropic.DecodeThinkingSignature(sig); ok || got != "" {
			t.Errorf("%q decodes to %q, %v; want an opaque signature", sig, got, ok)
		}
	}
	if got, ok := anthropic.DecodeThinkingSignature(p); !ok || got != "" {
		t.Errorf("the bare prefix decodes to %q, %v; want empty text", got, ok)
	}
	// A block's own text wins; a foreign signature on an empty block is no
	// reasoning.
	for _, tc := range []struct {
		b    anthropic.ThinkingBlock
		want string
	}{
		{anthropic.ThinkingBlock{Thinking: "shown", Signature: anthropic.ThinkingSignature("other")}, "shown"},
		{anthropic.ThinkingBlock{Thinking: "shown", Signature: "erased"}, "shown"},
		{anthropic.ThinkingBlock{Signature: "erased"}, ""},
		{anthropic.ThinkingBlock{Signature: "EqQBCkgIBxAB"}, ""},
	} {
		if got := tc.b.Reasoning(); got != tc.want {
			t.Errorf("%+v: Reasoning %q, want %q", tc.b, got, tc.want)
		}
	}
}

// TestEmitterOmittedSignature: with thinking omitted each thinking block
// is sent without text and its signature_delta carries exactly the block's
// reasoning; the client's copy of the block (empty thinking, that
// signature) gives the reasoning back. Shown blocks keep the configured
// signature.
func TestEmitterOmittedSignature(t *testing.T) {
	script := []Step{
		R("I should "), R("list the files.\n"), S(0, "c1", "Bash"), A(0, `{"command": "ls"}`), E(0),
		R("Then read "), R("README.md — “quoted”."), S(1, "c2", "Read"), A(1, `{"file_path": "README.md"}`), E(1),
		F(protocols.FinishToolCalls, protocols.Usage{CompletionTokens: 9}),
	}
	want := []string{"I should list the files.\n", "Then read README.md — “quoted”."}
	for _, tc := range []struct {
		display anthropic.ThinkingDisplay
		sig     string
	}{{anthropic.ThinkingOmitted, ""}, {anthropic.ThinkingShown, "erased"}, {anthropic.ThinkingShown, "sig-1"}} {
		e := anthropic.NewEmitter(anthropic.EmitterConfig{Model: "m", Thinking: tc.display, Signature: tc.sig})
		out := Run(e, script)
		var texts, sigs []string
		open := -1
		for _, f := range Frames(t, out) {
			ev, err := anthropic.DecodeStreamEvent([]byte(f.Data))
			if err != nil {
				t.Fatal(err)
			}
			switch ev := ev.(type) {
			case *anthropic.ContentBlockStartEvent:
				if ev.ContentBlock.OfThinking != nil {
					texts, sigs, open = append(texts, ""), append(sigs, ""), len(texts)
				}
			case *anthropic.ContentBlockDeltaEvent:
				switch ev.Delta.Type {
				case anthropic.DeltaThinking:
					texts[open] += ev.Delta.Thinking
				case anthropic.DeltaSignature:
					sigs[open] += ev.Delta.Signature
				}
			}
		}
		var back []string
		for i := range texts {
			b := anthropic.ThinkingBlock{Thinking: texts[i], Signature: sigs[i]}
			back = append(back, b.Reasoning())
			switch {
			case tc.display == anthropic.ThinkingOmitted && (texts[i] != "" || !strings.HasPrefix(sigs[i], anthropic.ThinkingSignaturePrefix)):
				t.Errorf("omitted block %d: thinking %q, signature %q", i, texts[i], sigs[i])
			case tc.display == anthropic.ThinkingShown && sigs[i] != tc.sig:
				t.Errorf("shown block %d: signature %q, want %q", i, sigs[i], tc.sig)
			}
		}
		if d := cmp.Diff(want, back); d != "" {
			t.Errorf("display %v: reasoning sent back (-want +got):\n%s", tc.display, d)
		}
	}
}

// TestEmitterOmittedZeroAllocs: the omitted signature is built in dst from
// the emitter's reusable buffer: a warmed-up stream does not allocate.
func TestEmitterOmittedZeroAllocs(t *testing.T) {
	cfg := anthropic.EmitterConfig{MessageID: "msg_1", Model: "m", InputTokens: 10, Thinking: anthropic.ThinkingOmitted}
	e := anthropic.NewEmitter(cfg)
	buf := make([]byte, 0, 64<<10)
	text := []byte("some <text> \"here\"\n")
	stream := func() {
		e.Reset(cfg)
		buf = buf[:0]
		for range 20 {
			buf = e.Reasoning(buf, text)
		}
		buf = e.ToolCallStart(buf, 0, []byte("call_1"), []byte("get_weather"))
		buf = e.ToolCallArgs(buf, 0, []byte(`{"a":1}`))
		buf = e.ToolCallEnd(buf, 0)
		buf = e.Reasoning(buf, text)
		buf = e.Content(buf, text)
		buf = e.Finish(buf, protocols.FinishStop, protocols.Usage{PromptTokens: 1, CompletionTokens: 2})
	}
	stream()
	if n := testing.AllocsPerRun(50, stream); n != 0 {
		t.Errorf("a warmed-up omitted stream allocates %v times", n)
	}
	if !strings.Contains(string(buf), anthropic.ThinkingSignature(strings.Repeat(string(text), 20))) {
		t.Errorf("the first block's signature does not carry its reasoning:\n%s", buf)
	}
}

func BenchmarkEmitterThinkingOmitted(b *testing.B) {
	cfg := anthropic.EmitterConfig{MessageID: "msg_1", Model: "Qwen/Qwen3-32B", InputTokens: 100, Thinking: anthropic.ThinkingOmitted}
	e := anthropic.NewEmitter(cfg)
	text := []byte(" the user wants the weather")
	buf := make([]byte, 0, 4096)
	b.SetBytes(int64(64 * len(text)))
	b.ReportAllocs()
	for b.Loop() {
		e.Reset(cfg)
		buf = buf[:0]
		for range 64 {
			buf = e.Reasoning(buf, text)
		}
		buf = e.Content(buf, text)
	}
}

// FuzzThinkingSignature: any signature decodes without panicking to at
// most three quarters of its length, and only a canonical one (what
// AppendThinkingSignature writes for the decoded text) is ours; any
// reasoning, streamed in pieces through an omitted emitter, comes back from
// the block's signature (bytes that are not UTF-8 as U+FFFD each).
func FuzzThinkingSignature(f *testing.F) {
	f.Add("erased", []byte("plan"), uint8(1))
	f.Add(anthropic.ThinkingSignature("I should list the files."), []byte("a\xffb\u2028"), uint8(3))
	f.Add(anthropic.ThinkingSignaturePrefix+"cGxhbm==", []byte(""), uint8(0))
	f.Add(anthropic.ThinkingSignaturePrefix+"cGxh\nbg==", []byte("\xe2\x82"), uint8(2))
	f.Fuzz(func(t *testing.T, sig string, reasoning []byte, split uint8) {
		got, ok := anthropic.DecodeThinkingSignature(sig)
		if !ok && got != "" {
			t.Fatalf("%q: not ours but decodes to %q", sig, got)
		}
		if ok {
			if !utf8.ValidString(got) {
				t.Fatalf("%q decodes to invalid UTF-8 %q", sig, got)
			}
			payload := sig[len(anthropic.ThinkingSignaturePrefix):]
			raw, err := base64.StdEncoding.DecodeString(payload)
			if err != nil || anthropic.ThinkingSignature(string(raw)) != sig {
				t.Fatalf("%q accepted but is not canonical", sig)
			}
			if len(raw) > len(payload)*3/4 || !sameModuloReplacement(got, string(raw)) {
				t.Fatalf("%q: %q from %d payload bytes", sig, got, len(payload))
			}
		}

		e := anthropic.NewEmitter(anthropic.EmitterConfig{Model: "m", Thinking: anthropic.ThinkingOmitted})
		var out []byte
		n := int(split)%5 + 1
		for b := reasoning; len(b) > 0; {
			k := min(n, len(b))
			out = e.Reasoning(out, b[:k])
			b = b[k:]
		}
		out = e.Finish(out, protocols.FinishStop, protocols.Usage{})
		var sigs []string
		for _, fr := range Frames(t, out) {
			ev, err := anthropic.DecodeStreamEvent([]byte(fr.Data))
			if err != nil {
				t.Fatalf("frame %s %q: %v", fr.Event, fr.Data, err)
			}
			if d, ok := ev.(*anthropic.ContentBlockDeltaEvent); ok {
				if d.Delta.Type == anthropic.DeltaThinking {
					t.Fatalf("omitted thinking sent text %q", d.Delta.Thinking)
				}
				if d.Delta.Type == anthropic.DeltaSignature {
					sigs = append(sigs, d.Delta.Signature)
				}
			}
		}
		if len(reasoning) == 0 {
			if len(sigs) != 0 {
				t.Fatalf("no reasoning, signatures %q", sigs)
			}
			return
		}
		if len(sigs) != 1 {
			t.Fatalf("%d signatures for one block", len(sigs))
		}
		back := anthropic.ThinkingBlock{Signature: sigs[0]}
		if !sameModuloReplacement(back.Reasoning(), string(reasoning)) {
			t.Fatalf("reasoning %q came back as %q", reasoning, back.Reasoning())
		}
	})
}

// sameModuloReplacement reports whether got is in with every byte that is
// not part of a UTF-8 sequence replaced by U+FFFD.
func sameModuloReplacement(got, in string) bool {
	var b strings.Builder
	for i := 0; i < len(in); {
		r, n := utf8.DecodeRuneInString(in[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(in[i : i+n])
		}
		i += n
	}
	return got == b.String()
}

// TestEmitterOmittedLarge: a reasoning block larger than the buffer the
// emitter keeps across Reset still travels whole in its signature, and the
// emitter serves the next stream as before.
func TestEmitterOmittedLarge(t *testing.T) {
	cfg := anthropic.EmitterConfig{Model: "m", Thinking: anthropic.ThinkingOmitted}
	e := anthropic.NewEmitter(cfg)
	for _, n := range []int{3 << 20, 100} {
		e.Reset(cfg)
		piece := []byte(strings.Repeat("x", 4096))
		var out []byte
		for sent := 0; sent < n; sent += len(piece) {
			out = e.Reasoning(out, piece[:min(len(piece), n-sent)])
		}
		out = e.Finish(out, protocols.FinishStop, protocols.Usage{})
		var sig string
		for _, f := range Frames(t, out) {
			if ev, err := anthropic.DecodeStreamEvent([]byte(f.Data)); err == nil {
				if d, ok := ev.(*anthropic.ContentBlockDeltaEvent); ok && d.Delta.Type == anthropic.DeltaSignature {
					sig = d.Delta.Signature
				}
			}
		}
		if got, ok := anthropic.DecodeThinkingSignature(sig); !ok || len(got) != n || strings.Trim(got, "x") != "" {
			t.Errorf("%d bytes of reasoning: signature carries %d bytes (%v)", n, len(got), ok)
		}
	}
}
