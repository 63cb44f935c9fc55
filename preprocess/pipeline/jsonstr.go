package pipeline

import (
	"bytes"
	"encoding/json"
)

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
