package pipeline

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
)

func appendInt(dst []byte, n int64) []byte { return strconv.AppendInt(dst, n, 10) }

// appendFloat writes f as a JSON number; -Inf (an impossible token) is
// written as -9999.0, the value vLLM reports, and NaN as 0.
func appendFloat(dst []byte, f float64) []byte {
	switch {
	case math.IsInf(f, -1):
		return append(dst, "-9999.0"...)
	case math.IsInf(f, 1):
		return append(dst, "9999.0"...)
	case math.IsNaN(f):
		return append(dst, '0')
	}
	return strconv.AppendFloat(dst, f, 'g', -1, 64)
}

// MarshalJSON encodes v as encoding/json does but without HTML escaping:
// '<', '>' and '&' are written as they are, as the official APIs and SDKs
// write them (encoding/json's Marshal would turn "N tokens > M" into
// "N tokens \u003e M", also inside the output of MarshalJSON methods).
func MarshalJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte{'\n'}), nil
}
