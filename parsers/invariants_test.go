package parsers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentwire/agentwire/parsers/internal/chunking"
	"github.com/google/go-cmp/cmp"
)

// TestInvariants is the one runner that applies the guarantees of the
// package documentation to every fixture case of every registered parser:
//
//   - the buffered result equals the case's expectation;
//   - the event stream (adjacent text merged) is identical fed whole, byte by
//     byte, rune by rune, split at every single point (sampled past
//     everySplitMax bytes, with more random chunkings instead), in seeded
//     random chunk sizes, and in the captured chunks when the case has them;
//   - no markup in content or reasoning;
//   - every event stream is well formed (calls open, stream fragments and
//     close in order; ended calls carry one valid JSON object; no text event
//     ends inside a character; one Feed never returns two adjacent text
//     events of one kind);
//   - held-back bytes stay bounded by the longest marker plus a partial rune;
//   - whole-call mode yields the same calls.
func TestInvariants(t *testing.T) {
	for _, r := range fixtureRuns(t) {
		t.Run(r.String(), func(t *testing.T) {
			t.Parallel()
			checkRun(t, r)
		})
	}
}

// normEvent is an event with its bytes copied and the id dropped (ids are
// random), for comparing streams.
type normEvent struct {
	Kind  EventKind
	Index int
	Name  string
	Text  string
}

// streamOf feeds chunks to p (after Reset) and returns the normalized event
// stream, checking well-formedness and holding bounds on the way.
func streamOf(t *testing.T, p *Parser, chunks [][]byte, how string) ([]normEvent, Result, int) {
	t.Helper()
	p.Reset()
	var (
		out   []normEvent
		acc   Accumulator
		wf    wellFormed
		bound = maxMarkerLen(p) + 3
	)
	wf.validUTF8 = utf8.Valid(bytes.Join(chunks, nil))
	var cur []byte // text of the last normalized event, while it may still grow
	flush := func() {
		if n := len(out); n > 0 {
			out[n-1].Text = string(cur)
		}
	}
	add := func(evs []Event) {
		acc.Add(evs)
		for i, e := range evs {
			if i > 0 && (e.Kind == EventContent || e.Kind == EventReasoning) && evs[i-1].Kind == e.Kind {
				t.Fatalf("%s: two adjacent %s events from one call (%q, %q): adjacent text of one kind is one event",
					how, e.Kind, evs[i-1].Text, e.Text)
			}
			if err := wf.check(e); err != nil {
				t.Fatalf("%s: %v (event %v)", how, err, e)
			}
			if n := len(out); n > 0 && (e.Kind == EventContent || e.Kind == EventReasoning || e.Kind == EventToolCallArgs) &&
				out[n-1].Kind == e.Kind && out[n-1].Index == e.Index {
				cur = append(cur, e.Text...)
				continue
			}
			flush()
			out = append(out, normEvent{Kind: e.Kind, Index: e.Index, Name: string(e.Name)})
			cur = append(cur[:0], e.Text...)
		}
	}
	for _, c := range chunks {
		add(p.Feed(c))
		if p.heldLen() > bound {
			t.Fatalf("%s: holding %d bytes, bound %d", how, p.heldLen(), bound)
		}
	}
	add(p.Finish())
	flush()
	if wf.open {
		t.Fatalf("%s: call %d still open after Finish", how, wf.idx)
	}
	if again := p.Finish(); len(again) != 0 {
		t.Fatalf("%s: second Finish returned %v", how, again)
	}
	return out, acc.Result(), acc.Abandoned()
}

// wellFormed checks the event grammar of one stream.
type wellFormed struct {
	validUTF8 bool // the input is valid UTF-8, so no text event may end mid-character
	starts    int
	open      bool
	idx       int
	args      strings.Builder
}

func (w *wellFormed) check(e Event) error {
	switch e.Kind {
	case EventContent, EventReasoning:
		if len(e.Text) == 0 {
			return fmt.Errorf("empty %s event", e.Kind)
		}
		if w.validUTF8 && !utf8.Valid(e.Text) {
			return fmt.Errorf("%s event ends inside a character", e.Kind)
		}
	case EventToolCallStart:
		if w.open {
			return fmt.Errorf("call %d started while call %d is open", e.Index, w.idx)
		}
		if e.Index != w.starts {
			return fmt.Errorf("call index %d, want %d", e.Index, w.starts)
		}
		if !utf8.Valid(e.Name) {
			return fmt.Errorf("call name is not valid UTF-8: %q", e.Name)
		}
		if len(e.Name) == 0 || len(e.ID) == 0 {
			return fmt.Errorf("call start without name or id")
		}
		w.starts++
		w.open, w.idx = true, e.Index
		w.args.Reset()
	case EventToolCallArgs:
		if !w.open || e.Index != w.idx {
			return fmt.Errorf("fragment for call %d, open %v %d", e.Index, w.open, w.idx)
		}
		if len(e.Text) == 0 {
			return fmt.Errorf("empty argument fragment")
		}
		w.args.Write(e.Text)
	case EventToolCallEnd:
		if !w.open || e.Index != w.idx {
			return fmt.Errorf("end for call %d, open %v %d", e.Index, w.open, w.idx)
		}
		a := w.args.String()
		if !json.Valid([]byte(a)) || !strings.HasPrefix(a, "{") {
			return fmt.Errorf("call %d ended with arguments that are not one JSON object: %q", e.Index, a)
		}
		if !utf8.ValidString(a) || hasLoneSurrogate(a) {
			return fmt.Errorf("call %d ended with arguments that are not valid UTF-8 JSON: %q", e.Index, a)
		}
		w.open = false
	case EventToolCallAbandoned:
		if !w.open || e.Index != w.idx {
			return fmt.Errorf("abandon for call %d, open %v %d", e.Index, w.open, w.idx)
		}
		w.open = false
	default:
		return fmt.Errorf("unknown event kind %d", e.Kind)
	}
	return nil
}

// hasLoneSurrogate reports whether JSON text a holds a \uXXXX escape of a
// surrogate that is not part of a high-low pair.
func hasLoneSurrogate(a string) bool {
	for i := 0; i < len(a); i++ {
		if a[i] != '\\' {
			continue
		}
		n, rep, _ := argDecide([]byte(a[i:]), true)
		if rep != "" {
			return true
		}
		i += n - 1 // past the escape (an escaped backslash is no escape)
	}
	return false
}

func maxMarkerLen(p *Parser) int {
	n := p.reasM.maxLen
	for _, row := range p.textMs {
		for _, m := range row {
			n = max(n, m.maxLen)
		}
	}
	if p.frame != nil {
		n = max(n, maxHoldOf(p.frame))
	}
	if b, ok := p.tool.(interface{ maxHold() int }); ok {
		n = max(n, b.maxHold())
	}
	return n
}

func checkRun(t *testing.T, r run) {
	p, err := New(r.cfg)
	if err != nil {
		t.Fatal(err)
	}
	in := []byte(r.c.Input)
	if len(r.c.Chunks) > 0 && strings.Join(r.c.Chunks, "") != r.c.Input {
		t.Fatalf("chunks do not join to the input")
	}

	// The buffered path, through the public entry point.
	res, err := Parse(r.cfg, r.c.Input)
	if err != nil {
		t.Fatal(err)
	}
	compareExpected(t, "Parse", res, -1, r.c.Expected)

	whole, wres, wab := streamOf(t, p, [][]byte{in}, "whole")
	compareExpected(t, "whole", wres, wab, r.c.Expected)
	if !r.c.AllowMarkup {
		ms := markersOf(p)
		if m := containsAny(wres.Content, ms); m != "" {
			t.Errorf("content contains markup %q: %q", m, wres.Content)
		}
		if m := containsAny(wres.Reasoning, ms); m != "" {
			t.Errorf("reasoning contains markup %q: %q", m, wres.Reasoning)
		}
	}

	same := func(how string, chunks [][]byte) {
		t.Helper()
		got, _, _ := streamOf(t, p, chunks, how)
		if slices.Equal(whole, got) {
			return // the common case, without cmp's reflection
		}
		if diff := cmp.Diff(whole, got); diff != "" {
			t.Fatalf("%s: event stream differs from the whole feed (-whole +%s):\n%s", how, how, diff)
		}
	}
	same("bytes", splitEvery(in, 1))
	same("runes", splitRunes(in))
	for _, i := range splitPoints(in) {
		same(fmt.Sprintf("split@%d", i), [][]byte{in[:i], in[i:]})
	}
	for seed := uint64(1); seed <= 4; seed++ {
		same(fmt.Sprintf("random(seed=%d)", seed), splitRandom(in, seed))
	}
	if len(in) > everySplitMax {
		// Past everySplitMax the two-way splits are sampled; many more
		// seeded chunkings of small and mixed sizes put a chunk boundary
		// at almost every position of the markup.
		for seed := uint64(5); seed < 5+extraChunkings; seed++ {
			same(fmt.Sprintf("random(seed=%d)", seed), splitRandomMax(in, seed, 2+int(seed%31)))
		}
	}
	if len(r.c.Chunks) > 0 {
		var cs [][]byte
		for _, c := range r.c.Chunks {
			cs = append(cs, []byte(c))
		}
		same("captured", cs)
	}
	// Empty chunks are no-ops.
	same("with-empty", append(append([][]byte{{}}, splitEvery(in, 3)...), []byte{}))

	// Whole-call mode: the same complete calls, nothing abandoned visibly.
	if !r.cfg.WholeCalls && r.cfg.MaxCallBuffer == 0 {
		cfg := r.cfg
		cfg.WholeCalls = true
		wp, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, chunks := range [][][]byte{{in}, splitEvery(in, 1)} {
			_, wr, ab := streamOf(t, wp, chunks, "whole-calls")
			exp := r.c.Expected
			exp.Abandoned = 0
			compareExpected(t, "whole-calls", wr, ab, exp)
		}
	}
}

// compareExpected checks a result against a fixture expectation. Call ids are
// compared only where the fixture gives one; arguments compactly (key order
// and number spelling must match).
func compareExpected(t *testing.T, how string, got Result, abandoned int, want fixtureExpected) {
	t.Helper()
	if got.Content != want.Content {
		t.Errorf("%s: content\n got %q\nwant %q", how, got.Content, want.Content)
	}
	if got.Reasoning != want.Reasoning {
		t.Errorf("%s: reasoning\n got %q\nwant %q", how, got.Reasoning, want.Reasoning)
	}
	type call struct {
		ID, Name string
		Args     any
	}
	var g, w []call
	for i, c := range got.Calls {
		var args any = compactJSON([]byte(c.Arguments))
		if i < len(want.Calls) && want.Calls[i].ArgumentsText == "" {
			args = jsonValue([]byte(c.Arguments))
		}
		g = append(g, call{Name: c.Name, Args: args, ID: c.ID})
	}
	for i, c := range want.Calls {
		id := c.ID
		if id == "" && i < len(got.Calls) {
			id = got.Calls[i].ID // ids not pinned by the fixture
		}
		var args any = compactJSON([]byte(c.ArgumentsText))
		if c.ArgumentsText == "" {
			args = jsonValue(c.Arguments)
		}
		w = append(w, call{Name: c.Name, Args: args, ID: id})
	}
	if diff := cmp.Diff(w, g); diff != "" {
		t.Errorf("%s: calls (-want +got):\n%s", how, diff)
	}
	ids := map[string]bool{}
	for _, c := range got.Calls {
		if ids[c.ID] {
			t.Errorf("%s: duplicate call id %q", how, c.ID)
		}
		ids[c.ID] = true
	}
	if abandoned >= 0 && abandoned != want.Abandoned {
		t.Errorf("%s: %d abandoned calls, want %d", how, abandoned, want.Abandoned)
	}
}

// everySplitMax is the input size up to which the harness feeds every
// two-way split. Checking every split point costs time quadratic in the input
// size, and a few 10–14 KB cases would dominate the whole suite under -race
// (about 1,100 CPU-seconds before this limit), so larger inputs get every
// split within edgeSplits bytes of either end (where the fixtures' markup
// is), sampledSplits seeded points in between, and extraChunkings more
// seeded random chunkings. Every class of check still runs on every case.
// The chunkings are package chunking's, shared with parserstest.
const (
	everySplitMax  = chunking.EverySplitMax
	edgeSplits     = chunking.EdgeSplits
	sampledSplits  = chunking.SampledSplits
	extraChunkings = chunking.ExtraChunkings
)

var (
	splitPoints    = chunking.SplitPoints
	splitRandomMax = chunking.Random
	splitEvery     = chunking.Every
	splitRunes     = chunking.Runes
)

func splitRandom(b []byte, seed uint64) [][]byte {
	rng := rand.New(rand.NewPCG(seed, seed*7919))
	max := 2 + int(seed*seed*3) // 5, 14, 29, 50
	var out [][]byte
	for len(b) > 0 {
		n := 1 + rng.IntN(max)
		if n > len(b) {
			n = len(b)
		}
		out = append(out, b[:n])
		b = b[n:]
	}
	return out
}
