// Package parserstest runs the parsers package's invariant suite over your own
// model outputs, from your own go test, the way net/http/httptest lets you
// test HTTP code without a server.
//
// A serving team that captured what its engine streamed (or wrote the output
// it expects a model to produce) describes each output as a Case and calls
// Run with the parsers.Config it serves with:
//
//	func TestOurParser(t *testing.T) {
//		parserstest.Run(t, parsers.Config{ToolParser: "hermes", ReasoningParser: "qwen3"},
//			parserstest.NewCase("weather", "<think>hm</think><tool_call>{...}</tool_call>",
//				parserstest.Expected{Reasoning: "hm", Calls: []parserstest.Call{
//					parserstest.NewCall("get_weather", `{"location":"Paris"}`),
//				}}),
//		)
//	}
//
// or loads fixture files and runs every case against every parser the file
// names:
//
//	files, err := parserstest.Glob("testdata/fixtures/*.json")
//	...
//	parserstest.RunFiles(t, files...)
//
// # Checks
//
// For every case Run checks (each one can be switched off with Runner.Skip or
// a case's "skip" list):
//
//   - Expected: the buffered result (parsers.Parse) and the streamed result
//     have the expected content, reasoning and calls (names, and arguments
//     compared as JSON values; ids only where the case pins one), with the
//     expected number of abandoned calls; whole-call mode
//     (Config.WholeCalls) yields the same calls. A case without an
//     expectation skips this check and gets only the invariants below.
//   - Chunking: the event stream (adjacent text of one kind merged) is the
//     same fed whole, byte by byte, rune by rune, split in two at every
//     point (inputs up to 2 KiB; longer inputs get every split within 128
//     bytes of either end, a seeded sample in between and 32 more seeded
//     random chunkings), in seeded random chunk sizes, in the captured
//     deltas when the case has them, and with empty chunks mixed in.
//   - Markup: content and reasoning contain none of the configured parsers'
//     markers (parsers.ToolParser Openers and Closers, parsers.ReasoningParser
//     Starts and Ends). Markers that are ordinary text once other text
//     precedes them (a bare "{" or "[", gemma4's "call:", granite's prose
//     phrases) are not checked. A case whose text legitimately contains a
//     marker sets allow_markup.
//   - LostBytes: where it can be checked — a stream with no tool call events
//     — every non-space byte of the input that is not part of a marker
//     reaches content or reasoning, in order. Grammars that frame the whole
//     output (channel headers, roles) are not checkable this way and are
//     skipped.
//   - Events: every stream is well formed: content and reasoning events are
//     non-empty and end on a character boundary (for valid UTF-8 input); one
//     Feed never returns two adjacent text events of one kind; a call starts
//     with index 0, 1, … and a name and id, its argument fragments carry its
//     index, and it ends (arguments concatenated form one valid UTF-8 JSON
//     object, starting with its "{", with no \uXXXX escape of a lone
//     surrogate) or is abandoned before the next call starts; no call is
//     open after Finish, and a second Finish returns nothing.
//   - Allocs: after Reset, feeding the case again (in its captured deltas, or
//     in 16-byte chunks) allocates nothing (testing.AllocsPerRun). The
//     count is process-wide: Run marks its subtests parallel only for a
//     Runner with Parallel set (which must skip this check), and a caller
//     that runs Run inside a parallel test should skip it too.
//
// # Runner
//
// A Runner changes what Run does: Skip switches checks off for every case;
// Chunkings = CapturedChunkings compares only the captured deltas with the
// whole feed (for fuzzing, where the fuzzer picks the chunks), and
// QuickChunkings leaves out the two-way splits (a few feeds per case
// instead of one per byte);
// Markup adds markers the markup check looks for; AfterFeed adds a check
// run after every Feed; Parallel runs the cases as parallel subtests (with
// the allocs check skipped). The parsers module runs its own fixture suite
// and fuzz targets this way, adding through Markup and AfterFeed the two
// checks that need the parser's internals: the markup of each grammar's
// own matchers, and held-back bytes bounded by the longest marker plus a
// partial character.
//
// # Fixture format
//
// A fixture file is one JSON object, the format of the parsers module's own
// testdata/<family>/*.json (unknown fields are an error, so a typo cannot
// silently switch a check off):
//
//	{
//	  "family": "hermes",                  // a label
//	  "description": "…",                  // free text
//	  "tool_parsers": ["hermes", "qwen25"], // every case runs with each of these…
//	  "reasoning_parsers": ["qwen3"],       // …combined with each of these (absent: none)
//	  "not_applicable": {"ID": "reason"},   // documentation only
//	  "cases": [
//	    {
//	      "name": "single call",            // subtest name
//	      "case": "TOOLCALLING.batch.1",    // optional case id
//	      "ref": "…",                       // optional free text
//	      "input": "<tool_call>…</tool_call>", // the whole model output
//	      "chunks": ["<tool_c", "all>…"],   // optional: the deltas as captured; must join to input
//	      "tools": [ … ],                   // optional: the request's tools (OpenAI, Responses or Anthropic shape)
//	      "options": {"in_reasoning": true, "whole_calls": false, "max_call_buffer": 0},
//	      "tool_parser": "-",               // optional: overrides the file's list for this case ("-": none)
//	      "reasoning_parser": "qwen3",      // likewise
//	      "allow_markup": false,            // the expected text legitimately contains marker text
//	      "skip": ["allocs"],               // optional: checks not run for this case
//	      "expected": {                     // optional: without it only the invariants run
//	        "content": "",
//	        "reasoning": "",
//	        "calls": [
//	          {"name": "get_weather", "arguments": {"location": "Paris"}},
//	          {"id": "call_1", "name": "f", "arguments_text": "{\"b\":1,\"a\":2}"}
//	        ],
//	        "abandoned": 0                  // calls started then abandoned while streaming
//	      }
//	    }
//	  ]
//	}
//
// "arguments" is compared as a JSON value (object key order free);
// "arguments_text" pins the exact text after json.Compact (key order, escapes
// and number spelling must match). "id" is compared only when present. The
// comments above are for the reader: JSON has none.
//
// Check names in "skip" and Runner.Skip: "expected", "chunking", "markup",
// "lost_bytes", "events", "allocs".
package parserstest
