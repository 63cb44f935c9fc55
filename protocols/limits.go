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
// most MaxNestingDepth levels. Decoding allocates at most five times the
// body (asserted by the anthropic package's decode memory test): about once
// for a body of a few large strings (each string is decoded with one
// allocation of its size), about four times for one of many tiny objects
// (Go values are larger than their JSON).
const MaxRequestBytes = 32 << 20

// MaxNestingDepth is the deepest nesting of JSON arrays and objects a
// request may have; deeper bodies are rejected before decoding.
const MaxNestingDepth = 128
