package responses

import (
	"errors"
	"strconv"

	"github.com/agentwire/agentwire/protocols/internal/jsonx"
	"github.com/agentwire/agentwire/protocols/internal/wire"
)

// nestedToolError rejects a namespace inside a namespace's tools, as the
// API does (a namespace holds function and custom tools). Rejecting it
// before decoding the inner tool keeps decoding linear: a namespace inside
// a namespace inside … would otherwise be read once per level.
type nestedToolError struct{ typ string }

func (e *nestedToolError) Error() string {
	return "Invalid value: '" + wire.Clip(e.typ, wire.MaxQuoted) +
		"'. Supported values are: 'function' and 'custom'."
}

// checkNamespaceTools looks at the types of the tools in the "tools"
// member of the namespace object data, without decoding them.
func checkNamespaceTools(data []byte) error {
	return jsonx.Members(data, func(key, value []byte) error {
		if string(key) != "tools" || jsonx.Kind(value) != '[' {
			return nil
		}
		return jsonx.Elements(value, func(elem []byte) error {
			if jsonx.Kind(elem) != '{' {
				return nil
			}
			if typ, err := wire.PeekType(elem); err == nil && typ == ToolNamespace {
				return &nestedToolError{typ: typ}
			}
			return nil
		})
	})
}

var errStop = errors.New("stop")

// nestedToolParam finds the param of the first rejected tool
// ("tools[2].tools[0].type"). It runs only on that error.
func nestedToolParam(body []byte) string {
	param := "tools"
	_ = jsonx.Members(body, func(key, tools []byte) error {
		if string(key) != "tools" || jsonx.Kind(tools) != '[' {
			return nil
		}
		i := 0
		return jsonx.Elements(tools, func(tool []byte) error {
			defer func() { i++ }()
			if t, _ := wire.PeekType(tool); t != ToolNamespace {
				return nil
			}
			j := 0
			found := false
			_ = jsonx.Members(tool, func(key, inner []byte) error {
				if string(key) != "tools" || jsonx.Kind(inner) != '[' {
					return nil
				}
				return jsonx.Elements(inner, func(b []byte) error {
					if t, _ := wire.PeekType(b); t == ToolNamespace {
						found = true
						return errStop
					}
					j++
					return nil
				})
			})
			if found {
				param = "tools[" + strconv.Itoa(i) + "].tools[" + strconv.Itoa(j) + "].type"
				return errStop
			}
			return nil
		})
	})
	return param
}
