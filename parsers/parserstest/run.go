package parserstest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/agentwire/agentwire/parsers"
)

// Runner runs cases with some checks switched off, fewer chunkings, or
// checks of your own added. The zero Runner runs every check in every
// chunking; Run and RunFiles use it.
type Runner struct {
	// Skip lists checks not run for any case.
	Skip []Check
	// Chunkings selects the chunkings of the chunking check (zero:
	// AllChunkings).
	Chunkings Chunkings
	// Markup, when set, returns more markers that must never appear in
	// content or reasoning, for the parser the case runs with (the markup
	// check always covers the configured parsers' Openers, Closers, Starts
	// and Ends).
	Markup func(p *parsers.Parser) []string
	// AfterFeed, when set, is called after every Feed of every stream the
	// events check verifies; an error it returns fails that check, as an
	// ill-formed event does.
	AfterFeed func(p *parsers.Parser) error
	// Parallel marks each case's subtest parallel (with a *testing.T). The
	// allocs check counts allocations process-wide, so a parallel Runner
	// must skip it: run it in a Runner of its own.
	Parallel bool
}

// Run checks every case against the parser cfg configures (with each case's
// tools and options applied on top; a case's tool_parser and
// reasoning_parser are ignored). With a *testing.T each case is a subtest;
// with any other testing.TB the cases run in turn and every message is
// prefixed with the case name. Failures are reported with t.Errorf, at most
// one per check and case, so a fake testing.TB that records Errorf sees them.
func Run(t testing.TB, cfg parsers.Config, cases ...Case) {
	t.Helper()
	Runner{}.Run(t, cfg, cases...)
}

// RunFiles runs every case of every file against every parser configuration
// the file names (File.Configs).
func RunFiles(t testing.TB, files ...*File) {
	t.Helper()
	Runner{}.RunFiles(t, files...)
}

// Run is the package-level Run with r's checks.
func (r Runner) Run(t testing.TB, cfg parsers.Config, cases ...Case) {
	t.Helper()
	if !r.valid(t) {
		return
	}
	for i := range cases {
		c := &cases[i]
		if err := c.validate(); err != nil {
			t.Errorf("%v", err)
			continue
		}
		ccfg, err := c.apply(cfg)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		r.sub(t, c.Name, func(rep *reporter) { r.runCase(rep, ccfg, c) })
	}
}

// RunFiles is the package-level RunFiles with r's checks.
func (r Runner) RunFiles(t testing.TB, files ...*File) {
	t.Helper()
	if !r.valid(t) {
		return
	}
	for _, f := range files {
		for i := range f.Cases {
			c := &f.Cases[i]
			if err := c.validate(); err != nil {
				t.Errorf("%s: %v", f.Path, err)
				continue
			}
			cfgs, err := f.Configs(c)
			if err != nil {
				t.Errorf("%s: %v", f.Path, err)
				continue
			}
			for _, cfg := range cfgs {
				name := fmt.Sprintf("%s/%s[tool=%s,reasoning=%s]", f.Family, c.Name, cfg.ToolParser, cfg.ReasoningParser)
				r.sub(t, name, func(rep *reporter) { r.runCase(rep, cfg, c) })
			}
		}
	}
}

// valid reports whether r's settings go together, and reports why not.
func (r Runner) valid(t testing.TB) bool {
	t.Helper()
	if r.Parallel && !slices.Contains(r.Skip, CheckAllocs) {
		t.Errorf("parserstest: a Parallel Runner must skip CheckAllocs (the allocation count is process-wide)")
		return false
	}
	for _, s := range r.Skip {
		if !slices.Contains(Checks, s) {
			t.Errorf("parserstest: unknown check %q in Runner.Skip (known: %v)", s, Checks)
			return false
		}
	}
	return true
}

// sub runs fn as a subtest of a *testing.T (parallel if r.Parallel), or
// inline with a name prefix.
func (r Runner) sub(t testing.TB, name string, fn func(*reporter)) {
	t.Helper()
	if tt, ok := t.(*testing.T); ok {
		tt.Run(name, func(t *testing.T) {
			if r.Parallel {
				t.Parallel()
			}
			fn(&reporter{t: t})
		})
		return
	}
	fn(&reporter{t: t, prefix: name + ": "})
}

type reporter struct {
	t      testing.TB
	prefix string
}

func (r *reporter) errorf(format string, args ...any) {
	r.t.Helper()
	r.t.Errorf(r.prefix+format, args...)
}

func (r Runner) enabled(c *Case, ch Check) bool {
	return !slices.Contains(r.Skip, ch) && !slices.Contains(c.Skip, ch)
}

func (r Runner) runCase(rep *reporter, cfg parsers.Config, c *Case) {
	rep.t.Helper()
	p, err := parsers.New(cfg)
	if err != nil {
		rep.errorf("%v", err)
		return
	}
	var check *streamCheck
	if r.enabled(c, CheckEvents) {
		check = &streamCheck{afterFeed: r.AfterFeed}
	}
	in := []byte(c.Input)

	whole, wres, wab, err := streamOf(p, [][]byte{in}, check)
	if err != nil {
		rep.errorf("whole: %v", err)
		return
	}

	if c.Expected != nil && r.enabled(c, CheckExpected) {
		res, err := parsers.Parse(cfg, c.Input)
		if err != nil {
			rep.errorf("Parse: %v", err)
		} else if msg := compareExpected(res, -1, *c.Expected); msg != "" {
			rep.errorf("Parse: %s", msg)
		}
		if msg := compareExpected(wres, wab, *c.Expected); msg != "" {
			rep.errorf("stream: %s", msg)
		}
		if !cfg.WholeCalls && cfg.MaxCallBuffer == 0 {
			// Whole-call mode: the same complete calls, abandoned ones invisible.
			wcfg := cfg
			wcfg.WholeCalls = true
			if wp, err := parsers.New(wcfg); err != nil {
				rep.errorf("whole-calls: %v", err)
			} else {
				exp := *c.Expected
				exp.Abandoned = 0
				for i, chunks := range [][][]byte{{in}, splitEvery(in, 1)} {
					how := [...]string{"fed whole", "byte by byte"}[i]
					_, res, ab, err := streamOf(wp, chunks, check)
					if err == nil {
						if msg := compareExpected(res, ab, exp); msg != "" {
							err = fmt.Errorf("%s", msg)
						}
					}
					if err != nil {
						rep.errorf("whole-calls, %s: %v", how, err)
						break
					}
				}
			}
		}
	}

	if !c.AllowMarkup && r.enabled(c, CheckMarkup) {
		markers := markersOf(cfg)
		if r.Markup != nil {
			markers = append(markers, r.Markup(p)...)
			slices.Sort(markers)
			markers = slices.Compact(markers)
		}
		if m := containsAny(wres.Content, markers); m != "" {
			rep.errorf("content contains markup %q: %q", m, wres.Content)
		}
		if m := containsAny(wres.Reasoning, markers); m != "" {
			rep.errorf("reasoning contains markup %q: %q", m, wres.Reasoning)
		}
	}

	if r.enabled(c, CheckLostBytes) && lostBytesCheckable(cfg, c.Input, whole) {
		var out strings.Builder
		for _, e := range whole {
			if e.Kind == parsers.EventContent || e.Kind == parsers.EventReasoning {
				out.WriteString(e.Text)
			}
		}
		all := allMarkersOf(cfg)
		want, got := visible(c.Input, all), visible(out.String(), all)
		if want != got {
			i := commonPrefix(want, got)
			rep.errorf("lost bytes: the input's text (markers and spaces removed) differs from content+reasoning at byte %d:\ninput  %q\noutput %q",
				i, around(want, i), around(got, i))
		}
	}

	if r.enabled(c, CheckChunking) {
		if err := chunkings(r.Chunkings, in, c.Chunks, func(how string, chunks [][]byte) error {
			got, _, _, err := streamOf(p, chunks, check)
			if err != nil {
				return fmt.Errorf("%s: %w", how, err)
			}
			if i, ok := firstDiff(whole, got); !ok {
				return fmt.Errorf("%s: event stream differs from the whole feed at event %d:\nwhole %s\n%5s %s",
					how, i, eventAt(whole, i), how, eventAt(got, i))
			}
			return nil
		}); err != nil {
			rep.errorf("chunking: %v", err)
		}
	} else if check != nil && len(c.Chunks) > 0 {
		// Still check the captured deltas' stream for well-formedness.
		if _, _, _, err := streamOf(p, toBytes(c.Chunks), check); err != nil {
			rep.errorf("captured: %v", err)
		}
	}

	if r.enabled(c, CheckAllocs) {
		chunks := splitEvery(in, 16)
		if len(c.Chunks) > 0 {
			chunks = toBytes(c.Chunks)
		}
		if n := allocsPerStream(p, chunks); n != 0 {
			rep.errorf("allocs: %v allocations per stream after Reset, want 0", n)
		}
	}
}

// allocsPerStream feeds chunks to p after Reset (twice to warm up, then
// under testing.AllocsPerRun) and returns the fewest allocations per stream
// of three measurements, so a stray allocation elsewhere in the process
// does not fail a case.
func allocsPerStream(p *parsers.Parser, chunks [][]byte) float64 {
	feed := func() {
		p.Reset()
		for _, c := range chunks {
			p.Feed(c)
		}
		p.Finish()
	}
	feed()
	feed()
	best := testing.AllocsPerRun(5, feed)
	for i := 0; i < 2 && best > 0; i++ {
		best = min(best, testing.AllocsPerRun(5, feed))
	}
	return best
}

// normEvent is an event with its bytes copied and the id dropped (ids may
// be random), adjacent text of one kind merged, for comparing streams.
type normEvent struct {
	Kind  parsers.EventKind
	Index int
	Name  string
	Text  string
}

func (e normEvent) String() string {
	return fmt.Sprintf("%s index=%d name=%q text=%q", e.Kind, e.Index, e.Name, e.Text)
}

func eventAt(evs []normEvent, i int) string {
	if i < len(evs) {
		return evs[i].String()
	}
	return "(end of stream)"
}

func firstDiff(a, b []normEvent) (int, bool) {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i, false
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b)), false
	}
	return 0, true
}

// streamCheck is what streamOf verifies besides the event grammar.
type streamCheck struct {
	afterFeed func(*parsers.Parser) error // Runner.AfterFeed
}

// streamOf feeds chunks to p (after Reset) and returns the normalized event
// stream, the accumulated result and the abandoned count. With a non-nil
// check it verifies the event grammar (and check's own checks) on the way
// and returns the first violation.
func streamOf(p *parsers.Parser, chunks [][]byte, check *streamCheck) ([]normEvent, parsers.Result, int, error) {
	p.Reset()
	var (
		out []normEvent
		acc parsers.Accumulator
		wf  = wellFormed{validUTF8: validChunks(chunks)}
		cur []byte
		err error
	)
	flush := func() {
		if n := len(out); n > 0 {
			out[n-1].Text = string(cur)
		}
	}
	add := func(evs []parsers.Event) {
		acc.Add(evs)
		for i, e := range evs {
			if check != nil && err == nil {
				if i > 0 && isText(e.Kind) && evs[i-1].Kind == e.Kind {
					err = fmt.Errorf("two adjacent %s events from one call (%q, %q): adjacent text of one kind is one event",
						e.Kind, evs[i-1].Text, e.Text)
				} else if werr := wf.check(e); werr != nil {
					err = fmt.Errorf("%v (event %v)", werr, e)
				}
			}
			if n := len(out); n > 0 && (isText(e.Kind) || e.Kind == parsers.EventToolCallArgs) &&
				out[n-1].Kind == e.Kind && out[n-1].Index == e.Index {
				cur = append(cur, e.Text...)
				continue
			}
			flush()
			out = append(out, normEvent{Kind: e.Kind, Index: e.Index, Name: string(e.Name)})
			cur = append(cur[:0], e.Text...)
		}
	}
	for i, c := range chunks {
		add(p.Feed(c))
		if check != nil && check.afterFeed != nil && err == nil {
			if aerr := check.afterFeed(p); aerr != nil {
				err = fmt.Errorf("after chunk %d: %w", i, aerr)
			}
		}
	}
	add(p.Finish())
	flush()
	if check != nil && err == nil {
		if wf.open {
			err = fmt.Errorf("call %d still open after Finish", wf.idx)
		} else if again := p.Finish(); len(again) != 0 {
			err = fmt.Errorf("second Finish returned %v", again)
		}
	}
	return out, acc.Result(), acc.Abandoned(), err
}

func isText(k parsers.EventKind) bool {
	return k == parsers.EventContent || k == parsers.EventReasoning
}

func validChunks(chunks [][]byte) bool {
	return utf8.Valid(bytes.Join(chunks, nil))
}

// wellFormed checks the event grammar of one stream.
type wellFormed struct {
	validUTF8 bool // the input is valid UTF-8, so no text event may end inside a character
	starts    int
	open      bool
	idx       int
	args      []byte
}

func (w *wellFormed) check(e parsers.Event) error {
	switch e.Kind {
	case parsers.EventContent, parsers.EventReasoning:
		if len(e.Text) == 0 {
			return fmt.Errorf("empty %s event", e.Kind)
		}
		if w.validUTF8 && !utf8.Valid(e.Text) {
			return fmt.Errorf("%s event ends inside a character", e.Kind)
		}
	case parsers.EventToolCallStart:
		if w.open {
			return fmt.Errorf("call %d started while call %d is open", e.Index, w.idx)
		}
		if e.Index != w.starts {
			return fmt.Errorf("call index %d, want %d", e.Index, w.starts)
		}
		if len(e.Name) == 0 || len(e.ID) == 0 {
			return fmt.Errorf("call start without name or id")
		}
		if !utf8.Valid(e.Name) {
			return fmt.Errorf("call name is not valid UTF-8: %q", e.Name)
		}
		w.starts++
		w.open, w.idx = true, e.Index
		w.args = w.args[:0]
	case parsers.EventToolCallArgs:
		if !w.open || e.Index != w.idx {
			return fmt.Errorf("argument fragment for call %d, but the open call is %s", e.Index, w.openCall())
		}
		if len(e.Text) == 0 {
			return fmt.Errorf("empty argument fragment")
		}
		w.args = append(w.args, e.Text...)
	case parsers.EventToolCallEnd:
		if !w.open || e.Index != w.idx {
			return fmt.Errorf("end of call %d, but the open call is %s", e.Index, w.openCall())
		}
		if !json.Valid(w.args) || len(w.args) == 0 || w.args[0] != '{' || !utf8.Valid(w.args) {
			return fmt.Errorf("call %d ended with arguments that are not one valid UTF-8 JSON object: %q", e.Index, w.args)
		}
		if hasLoneSurrogate(w.args) {
			return fmt.Errorf("call %d ended with arguments that escape a lone surrogate: %q", e.Index, w.args)
		}
		w.open = false
	case parsers.EventToolCallAbandoned:
		if !w.open || e.Index != w.idx {
			return fmt.Errorf("abandon of call %d, but the open call is %s", e.Index, w.openCall())
		}
		w.open = false
	default:
		return fmt.Errorf("unknown event kind %d", e.Kind)
	}
	return nil
}

// hasLoneSurrogate reports whether JSON text a holds a \uXXXX escape of a
// surrogate that is not part of a high-low pair (the parsers turn those
// into \ufffd).
func hasLoneSurrogate(a []byte) bool {
	hex4 := func(b []byte) (rune, bool) {
		if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
			return 0, false
		}
		var r rune
		for _, c := range b[2:6] {
			switch {
			case '0' <= c && c <= '9':
				r = r<<4 | rune(c-'0')
			case 'a' <= c && c <= 'f':
				r = r<<4 | rune(c-'a'+10)
			case 'A' <= c && c <= 'F':
				r = r<<4 | rune(c-'A'+10)
			default:
				return 0, false
			}
		}
		return r, true
	}
	for i := 0; i < len(a); i++ {
		if a[i] != '\\' {
			continue
		}
		r, ok := hex4(a[i:])
		if !ok {
			i++ // a two-byte escape (an escaped backslash is no escape)
			continue
		}
		switch {
		case 0xDC00 <= r && r <= 0xDFFF:
			return true // a low surrogate first
		case 0xD800 <= r && r <= 0xDBFF:
			lo, ok := hex4(a[i+6:])
			if !ok || lo < 0xDC00 || lo > 0xDFFF {
				return true
			}
			i += 6 // the pair's low half
		}
		i += 5
	}
	return false
}

func (w *wellFormed) openCall() string {
	if !w.open {
		return "none"
	}
	return fmt.Sprint(w.idx)
}

// compareExpected checks a result against an expectation and describes the
// differences ("" if none). abandoned < 0 skips the abandoned count.
func compareExpected(got parsers.Result, abandoned int, want Expected) string {
	var msgs []string
	if got.Content != want.Content {
		msgs = append(msgs, fmt.Sprintf("content\n got %q\nwant %q", got.Content, want.Content))
	}
	if got.Reasoning != want.Reasoning {
		msgs = append(msgs, fmt.Sprintf("reasoning\n got %q\nwant %q", got.Reasoning, want.Reasoning))
	}
	if len(got.Calls) != len(want.Calls) {
		msgs = append(msgs, fmt.Sprintf("%d calls, want %d:\n got %s\nwant %s",
			len(got.Calls), len(want.Calls), gotCalls(got.Calls), wantCalls(want.Calls)))
	} else {
		for i, w := range want.Calls {
			g := got.Calls[i]
			if w.ID != "" && g.ID != w.ID {
				msgs = append(msgs, fmt.Sprintf("call %d: id %q, want %q", i, g.ID, w.ID))
			}
			if g.Name != w.Name {
				msgs = append(msgs, fmt.Sprintf("call %d: name %q, want %q", i, g.Name, w.Name))
			}
			if !sameArgs(g.Arguments, w) {
				wa := string(w.Arguments)
				if w.ArgumentsText != "" {
					wa = w.ArgumentsText
				}
				msgs = append(msgs, fmt.Sprintf("call %d (%s): arguments\n got %s\nwant %s", i, g.Name, g.Arguments, wa))
			}
		}
	}
	ids := map[string]bool{}
	for _, c := range got.Calls {
		if ids[c.ID] {
			msgs = append(msgs, fmt.Sprintf("duplicate call id %q", c.ID))
		}
		ids[c.ID] = true
	}
	if abandoned >= 0 && abandoned != want.Abandoned {
		msgs = append(msgs, fmt.Sprintf("%d abandoned calls, want %d", abandoned, want.Abandoned))
	}
	return strings.Join(msgs, "\n")
}

func gotCalls(cs []parsers.ToolCall) string {
	if len(cs) == 0 {
		return "(none)"
	}
	var b strings.Builder
	for _, c := range cs {
		fmt.Fprintf(&b, "[%s %s]", c.Name, c.Arguments)
	}
	return b.String()
}

func wantCalls(cs []Call) string {
	if len(cs) == 0 {
		return "(none)"
	}
	var b strings.Builder
	for _, c := range cs {
		a := string(c.Arguments)
		if c.ArgumentsText != "" {
			a = c.ArgumentsText
		}
		fmt.Fprintf(&b, "[%s %s]", c.Name, a)
	}
	return b.String()
}

// sameArgs compares arguments as JSON values (numbers by their literal
// text), or compactly when the expectation pins the text.
func sameArgs(got string, w Call) bool {
	if w.ArgumentsText != "" {
		return compactJSON([]byte(got)) == compactJSON([]byte(w.ArgumentsText))
	}
	g, ok1 := jsonValue([]byte(got))
	e, ok2 := jsonValue(w.Arguments)
	if !ok1 || !ok2 {
		return ok1 == ok2 && got == string(w.Arguments)
	}
	// Both decoded with UseNumber; re-encode canonically (map keys sorted).
	gb, _ := json.Marshal(g)
	eb, _ := json.Marshal(e)
	return bytes.Equal(gb, eb)
}

func compactJSON(b []byte) string {
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		return "!" + string(b)
	}
	return buf.String()
}

func jsonValue(b []byte) (any, bool) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return nil, false
	}
	return v, true
}

// markersOf lists the markers of cfg's parsers that may never appear in
// content or reasoning: tool openers and closers, reasoning starts and ends.
// Markers that are ordinary text once other text precedes them (a bare "{"
// or "[", gemma4's "call:", granite's prose phrases) carry no bracket or bar
// character and are left out.
func markersOf(cfg parsers.Config) []string {
	var ms []string
	if cfg.ToolParser != "" {
		if ti, ok := parsers.ToolParser(cfg.ToolParser); ok {
			ms = append(ms, ti.Openers...)
			ms = append(ms, ti.Closers...)
		}
	}
	if cfg.ReasoningParser != "" {
		if ri, ok := parsers.ReasoningParser(cfg.ReasoningParser); ok {
			ms = append(ms, ri.Starts...)
			ms = append(ms, ri.Ends...)
		}
	}
	ms = slices.DeleteFunc(ms, func(m string) bool {
		return len(m) < 2 || !strings.ContainsAny(m, "<>[]|｜◁▷")
	})
	// Longest first, so stripping removes a marker before any marker it contains.
	slices.SortFunc(ms, func(a, b string) int { return len(b) - len(a) })
	return slices.Compact(ms)
}

func containsAny(s string, ms []string) string {
	for _, m := range ms {
		if strings.Contains(s, m) {
			return m
		}
	}
	return ""
}

// allMarkersOf is every marker of cfg's parsers of two bytes or more,
// longest first: what the lost-bytes check removes from input and output.
func allMarkersOf(cfg parsers.Config) []string {
	var ms []string
	if ti, ok := parsers.ToolParser(cfg.ToolParser); ok && cfg.ToolParser != "" {
		ms = append(ms, ti.Openers...)
		ms = append(ms, ti.Closers...)
	}
	if ri, ok := parsers.ReasoningParser(cfg.ReasoningParser); ok && cfg.ReasoningParser != "" {
		ms = append(ms, ri.Starts...)
		ms = append(ms, ri.Ends...)
	}
	ms = slices.DeleteFunc(ms, func(m string) bool { return len(m) < 2 })
	slices.SortFunc(ms, func(a, b string) int { return len(b) - len(a) })
	return slices.Compact(ms)
}

// labelGrammars are reasoning grammars whose start marker is followed by a
// channel label the grammar strips (gemma4's "thought"): the label is
// neither a marker nor text, so the lost-bytes check does not apply.
var labelGrammars = []string{"gemma4"}

// framingGrammars frame the whole output with headers (roles, channel
// names) that are neither markers nor text, so the lost-bytes check cannot
// account for their bytes.
var framingGrammars = []string{"harmony", "kimi_k3", "inkling", "minimax_m3", "muse_glimmer", "cohere_command4"}

// lostBytesCheckable reports whether every non-marker byte of a stream
// must reach content or reasoning: no call events, no tool-call opener in
// the input (grammars drop malformed call markup as documented), and no
// framing grammar.
func lostBytesCheckable(cfg parsers.Config, input string, evs []normEvent) bool {
	for _, e := range evs {
		if !isText(e.Kind) {
			return false
		}
	}
	if ti, ok := parsers.ToolParser(cfg.ToolParser); ok && cfg.ToolParser != "" {
		for _, m := range ti.Openers {
			if strings.Contains(input, m) {
				return false
			}
		}
	}
	if ri, ok := parsers.ReasoningParser(cfg.ReasoningParser); ok && (ri.Framing || slices.Contains(labelGrammars, ri.Grammar)) {
		return false
	}
	if ti, ok := parsers.ToolParser(cfg.ToolParser); ok && slices.Contains(framingGrammars, ti.Grammar) {
		return false
	}
	return true
}

// visible returns s with every marker and every space removed.
func visible(s string, markers []string) string {
	for _, m := range markers {
		s = strings.ReplaceAll(s, m, "")
	}
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

func commonPrefix(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}

func around(s string, i int) string {
	lo, hi := max(0, i-20), min(len(s), i+40)
	return s[lo:hi]
}

func toBytes(ss []string) [][]byte {
	out := make([][]byte, len(ss))
	for i, s := range ss {
		out[i] = []byte(s)
	}
	return out
}
