// Package parsers splits raw model output into reasoning, content and tool
// calls, incrementally, for every model family agentwire supports.
//
// Each wire grammar is one incremental state machine. The streaming path
// feeds it chunks as the engine produces them; the buffered path (Parse) is
// the same machine fed the whole text once, so the two cannot disagree.
// Reasoning runs first; its content output feeds the tool-call machine.
//
// Call sequence:
//
//	New { Feed } Finish [ Reset { Feed } Finish ]
//
// Feed and Finish return a slice of events owned by the parser. The slice and
// every []byte inside its events alias the parser's buffers (or the chunk
// passed to Feed) and are valid only until the next call to Feed, Finish or
// Reset. Copy what you keep (Event.Clone, or an Accumulator).
//
// A Parser is not safe for concurrent use. Use one per stream; reuse it with
// Reset. After warm-up, Feed allocates nothing for content, reasoning and
// argument bytes.
//
// Events: content text, reasoning text, tool call start (index, id, name),
// argument fragments (JSON text; concatenated they are the call's arguments),
// tool call end (complete, valid JSON arguments) and tool call abandoned (the
// output can never complete the call; its earlier events should be
// discarded). Config.WholeCalls emits each call whole at its end instead.
//
// Guarantees, for every registered grammar (each one is a test):
//
//   - Chunking invariance: the events concatenated are the same however the
//     output is split into chunks, including inside markers and characters.
//   - Markup never appears in content or reasoning; every other byte ends up
//     in content, reasoning or a call, except where a grammar documents a drop
//     (PARSER_CASES.md).
//   - At Finish, a call is recovered only when it is provably complete.
//   - Markers inside JSON strings are text.
//   - Held-back bytes are bounded by the longest marker (glm47: a candidate
//     bare-body name of at most 128 bytes and its <arg_key>), plus a partial
//     character; per-call buffers by Config.MaxCallBuffer.
//   - No panics on any input; Feed is linear in the chunk.
//   - No event ends inside a UTF-8 character: a partial character at the end
//     of a chunk is held until it completes (or until Finish).
//   - Adjacent text of one kind from one Feed is one event, however many
//     candidates failed inside it.
//   - Tool names are valid UTF-8 and an ended call's arguments are valid
//     UTF-8 JSON: a byte that starts no valid UTF-8 sequence becomes U+FFFD,
//     a \uXXXX escape of a lone surrogate becomes \ufffd; everything else
//     is the model's bytes.
//
// Parse is the buffered form: New, one Feed with the whole text, Finish, and
// the events collected into a Result that owns its memory.
package parsers
