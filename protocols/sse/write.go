package sse

// AppendEvent appends one server-sent event: an `event:` line when event is
// not empty, one `data:` line, and the blank line that ends the event. data
// must not contain newlines (compact JSON never does). It allocates only when
// dst must grow.
func AppendEvent[S ~string | ~[]byte](dst []byte, event string, data S) []byte {
	if event != "" {
		dst = append(dst, "event: "...)
		dst = append(dst, event...)
		dst = append(dst, '\n')
	}
	dst = append(dst, "data: "...)
	dst = append(dst, data...)
	return append(dst, '\n', '\n')
}

// Done is the terminator of an OpenAI-style stream (Chat Completions,
// Completions and, for compatibility, Responses).
const Done = "data: [DONE]\n\n"

// AppendAnnotation appends a Dynamo annotation event (nvext.annotations):
// the event name is the annotation name and the JSON value rides in a
// comment line, before the stream's first data chunk. value must be compact
// JSON (no newlines).
func AppendAnnotation[S ~string | ~[]byte](dst []byte, name string, value S) []byte {
	dst = append(dst, "event: "...)
	dst = append(dst, name...)
	dst = append(dst, "\n: "...)
	dst = append(dst, value...)
	return append(dst, '\n', '\n')
}
