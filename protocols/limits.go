package protocols

// MaxRequestBytes is the largest request body the decoders accept by
// default (32 MiB, the Anthropic Messages API's own limit). Servers should
// enforce it before reading the body (http.MaxBytesReader) and answer 413
// in the API's shape (anthropic: request_too_large; OpenAI:
// invalid_request_error); each package's DecodeOptions.MaxBytes changes it
// for the decoders.
//
// Decoding is linear in the body: every typed level reads its bytes once,
// values are not copied on the way down, and arrays and objects may nest at
// most MaxNestingDepth levels, and an object at most 1,000 unknown members.
// Decoding allocates a small multiple of the body (asserted by the anthropic
// package's decode memory test): about once for a body of large strings
// (each string is decoded with one allocation of its size), four to five
// times for real conversations of many small messages, and at most about
// seven times for adversarial bodies of empty blocks or strings (a Go value
// is larger than `{"type":"text","text":""}`).
const MaxRequestBytes = 32 << 20

// MaxNestingDepth is the deepest nesting of JSON arrays and objects a
// request may have; deeper bodies are rejected before decoding.
const MaxNestingDepth = 128
