package protocols

// AppendSSE appends one server-sent event: an `event:` line when event is not
// empty, one `data:` line, and the blank line that ends the event. data must
// not contain newlines (compact JSON never does).
func AppendSSE[S ~string | ~[]byte](dst []byte, event string, data S) []byte {
	if event != "" {
		dst = append(dst, "event: "...)
		dst = append(dst, event...)
		dst = append(dst, '\n')
	}
	dst = append(dst, "data: "...)
	dst = append(dst, data...)
	return append(dst, '\n', '\n')
}

// SSEDone is the terminator of an OpenAI-style stream.
const SSEDone = "data: [DONE]\n\n"
