package parsers_test

import (
	"slices"
	"testing"

	"github.com/agentwire/agentwire/parsers"
	"github.com/agentwire/agentwire/parsers/parserstest"
)

// The library's own fixture suite runs through parserstest, the package
// users run over their own captures: every case of every file under
// testdata/, under every parser name the file lists. parserstest sees only
// the exported API; the two checks that need the Parser's internals come
// from export_test.go as Runner hooks.

// libraryFixtures loads every fixture file under testdata/.
func libraryFixtures(t testing.TB) []*parserstest.File {
	t.Helper()
	files, err := parserstest.Glob("testdata/*/*.json")
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// byGrammar splits the fixture files by parser identity. canonical keeps,
// in each file's tool and reasoning parser lists, the first name of every
// registered grammar entry; aliases keeps the rest (names registered to an
// entry already listed: vLLM's, SGLang's and Dynamo's spellings of one
// grammar), or is nil when the file has none. An alias builds the very same
// parser, so it gets the whole feed and the captured deltas (aliasSuite),
// not every chunking again: the peers' spellings multiply the names, not the
// grammars, and each one under every chunking would cost the race-detector
// run minutes per alias.
func byGrammar(files []*parserstest.File) (canonical, aliases []*parserstest.File) {
	split := func(names []string, same func(a, b string) bool) (first, rest []string) {
		for _, n := range names {
			if slices.ContainsFunc(first, func(f string) bool { return same(f, n) }) {
				rest = append(rest, n)
			} else {
				first = append(first, n)
			}
		}
		return first, rest
	}
	for _, f := range files {
		tools, toolAliases := split(f.ToolParsers, parsers.SameTool)
		reasons, reasonAliases := split(f.ReasoningParsers, parsers.SameReasoning)
		c := *f
		c.ToolParsers, c.ReasoningParsers = tools, reasons
		canonical = append(canonical, &c)
		// An alias of one list runs with every name of the other.
		if len(toolAliases) > 0 {
			a := *f
			a.ToolParsers = toolAliases
			aliases = append(aliases, &a)
		}
		if len(reasonAliases) > 0 {
			a := *f
			a.ReasoningParsers = reasonAliases
			aliases = append(aliases, &a)
		}
	}
	return canonical, aliases
}

// suite is the Runner of the fixture suite: every check but the allocation
// count (TestFixtureAllocs runs it, alone: it is process-wide, and the
// suite's cases run in parallel), plus held-back bytes bounded after every
// Feed (parsers.CheckHeld) and the markup of the grammars' own matchers
// (parsers.Markup) beside the registry's markers. It feeds every chunking,
// under the race detector too (about three minutes on a loaded 2-core
// machine, as before the suite moved to parserstest).
var suite = parserstest.Runner{
	Skip:      []parserstest.Check{parserstest.CheckAllocs},
	Markup:    parsers.Markup,
	AfterFeed: parsers.CheckHeld,
	Parallel:  true,
}

// TestInvariants applies the guarantees of the package documentation to
// every fixture case of every registered parser (TESTING.md, "The
// invariant harness"):
//
//   - the buffered result (Parse) and the streamed result equal the case's
//     expectation, and whole-call mode yields the same calls;
//   - the event stream (adjacent text merged) is identical fed whole, byte by
//     byte, rune by rune, split at every single point (sampled past 2 KiB,
//     with more random chunkings instead), in seeded random chunk sizes, in
//     the captured chunks when the case has them, and with empty chunks;
//   - no markup in content or reasoning (the registry's markers and the
//     grammars' matchers');
//   - no lost bytes in streams without calls (parserstest's CheckLostBytes);
//   - every event stream is well formed (calls open, stream fragments and
//     close in order; ended calls carry one valid JSON object without a lone
//     surrogate escape; no text event ends inside a character; one Feed
//     never returns two adjacent text events of one kind);
//   - held-back bytes stay bounded by the longest marker plus a partial rune.
//
// Names that are aliases of a listed grammar run the same checks on the
// whole feed and the captured deltas only (byGrammar).
//
// Under the race detector every feed costs about eight times as much and
// finds nothing the single-goroutine parsers could race on (the
// concurrency tests do that), so the two-way splits are left out there
// (parserstest.QuickChunkings): the README's test command runs with -race,
// and .ci/run runs this test once more without it, with every chunking.
func TestInvariants(t *testing.T) {
	canonical, aliases := byGrammar(libraryFixtures(t))
	full := suite
	if raceEnabled {
		full.Chunkings = parserstest.QuickChunkings
	}
	full.RunFiles(t, canonical...)
	aliasSuite := suite
	aliasSuite.Chunkings = parserstest.CapturedChunkings
	aliasSuite.RunFiles(t, aliases...)
}

// TestFixturesLoadWithParserstest: every fixture file of this package is in
// the format parserstest documents for users, and names only registered
// parsers. (TestInvariants and TestFixtureAllocs run every check over all
// of them, through parserstest.)
func TestFixturesLoadWithParserstest(t *testing.T) {
	files, err := parserstest.Glob("testdata/*/*.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if len(f.Cases) == 0 {
			t.Errorf("%s: no cases", f.Path)
		}
		for i := range f.Cases {
			if _, err := f.Configs(&f.Cases[i]); err != nil {
				t.Errorf("%s: %v", f.Path, err)
			}
		}
	}
}

// TestFixtureAllocs: after Reset, feeding any fixture case again (in its
// captured deltas, or in 16-byte chunks) allocates nothing, under every
// parser name (parserstest's CheckAllocs).
func TestFixtureAllocs(t *testing.T) {
	files := libraryFixtures(t)
	for _, f := range files {
		for i := range f.Cases {
			// Known: hexadecimal integers past 64 bits go through
			// math/big, which allocates.
			if f.Family == "pythonic" && f.Cases[i].Name == "integers of any size" {
				f.Cases[i].Skip = append(f.Cases[i].Skip, parserstest.CheckAllocs)
			}
		}
	}
	var skip []parserstest.Check
	for _, c := range parserstest.Checks {
		if c != parserstest.CheckAllocs {
			skip = append(skip, c)
		}
	}
	parserstest.Runner{Skip: skip}.RunFiles(t, files...)
}

// The parser fuzz targets (package parsers, beside each grammar) check
// through parserstest too: fuzzInvariants calls parsers.CheckChunked, set
// here when the test binary starts.
func init() { parsers.CheckChunked = checkChunked }

// fuzzRunner is what a fuzz input gets: the whole feed and the fuzzer's
// chunks give the same, well-formed events, with held-back bytes bounded.
// Arbitrary input has no expectation, may legitimately show marker text
// (malformed markup is text) and may drop bytes as its grammar documents.
var fuzzRunner = parserstest.Runner{
	Skip: []parserstest.Check{parserstest.CheckExpected, parserstest.CheckMarkup,
		parserstest.CheckLostBytes, parserstest.CheckAllocs},
	Chunkings: parserstest.CapturedChunkings,
	AfterFeed: parsers.CheckHeld,
}

func checkChunked(t *testing.T, cfg parsers.Config, in []byte, chunks [][]byte) {
	t.Helper()
	deltas := make([]string, len(chunks))
	for i, c := range chunks {
		deltas[i] = string(c)
	}
	// Not a *testing.T, so the case runs inline, without a subtest per input.
	fuzzRunner.Run(inline{t}, cfg, parserstest.FromDeltas("fuzz", deltas, nil))
}

// inline hides a *testing.T's type from parserstest.Run.
type inline struct{ testing.TB }
