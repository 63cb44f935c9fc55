// Package conformance holds the two conformance suites of the server path,
// which run every stage a harness request crosses (package
// preprocess/server's routes, the request half, the engine adapters, the
// response pipeline):
//
//   - the API conformance suite (conformance_test.go, TestEveryAPIConforms):
//     every API of api.All answers one request streamed and unary alike,
//     answers its errors in its own shape before the first byte and inside
//     a stream, and is accepted by its official SDK; an API registered
//     without a conformance client fails it;
//   - the tool-loop conformance suite (toolloop_test.go, clients_test.go,
//     TestToolLoop): an agent session on every model family with a real
//     chat template, on every client shape, streamed and unary, through a
//     fake vLLM in the test (TESTING.md, "The tool-loop conformance suite").
//
// They live in a package of their own so that their many servers and
// parallel rows never disturb the resource baselines (goroutines, open
// files, the live heap) of the server's own tests. It has no non-test code.
package conformance
