package protocols

import "github.com/agentwire/agentwire/protocols/internal/jsonx"

// AppendJSONString appends s to dst as a quoted JSON string, escaped as
// every body this module writes is (encoding/json without HTML escaping:
// '"', '\\' and control characters escaped, invalid UTF-8 as U+FFFD,
// U+2028 and U+2029 as \u2028 and \u2029), and returns the extended
// slice. It allocates only when dst lacks capacity. It is the one escaper
// of that policy for the packages outside this module that write JSON by
// hand (the response pipeline, the engine adapters' request bodies, the
// chat template's input).
func AppendJSONString[S ~string | ~[]byte](dst []byte, s S) []byte {
	return jsonx.AppendString(dst, s)
}
