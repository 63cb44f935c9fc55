package parsers

import (
	"encoding/json"
	"errors"
	"fmt"
)

// ToolsFromJSON reads tool definitions in the shapes requests carry them: an
// array of OpenAI Chat Completions tools ({"type":"function","function":
// {"name":…,"parameters":{…}}}), OpenAI Responses / bare function objects
// ({"name":…,"parameters":{…}}) or Anthropic tools ({"name":…,
// "input_schema":{…}}). It is a setup-time helper and allocates.
func ToolsFromJSON(data []byte) ([]Tool, error) {
	var defs []struct {
		Name        string          `json:"name"`
		Parameters  json.RawMessage `json:"parameters"`
		InputSchema json.RawMessage `json:"input_schema"`
		Function    *struct {
			Name       string          `json:"name"`
			Parameters json.RawMessage `json:"parameters"`
		} `json:"function"`
	}
	if err := json.Unmarshal(data, &defs); err != nil {
		return nil, fmt.Errorf("parsers: tools: %w", err)
	}
	tools := make([]Tool, 0, len(defs))
	for i, d := range defs {
		t := Tool{Name: d.Name, Parameters: d.Parameters}
		if d.Function != nil {
			t = Tool{Name: d.Function.Name, Parameters: d.Function.Parameters}
		} else if t.Parameters == nil {
			t.Parameters = d.InputSchema
		}
		if t.Name == "" {
			return nil, fmt.Errorf("parsers: tools[%d]: %w", i, errNoToolName)
		}
		tools = append(tools, t)
	}
	return tools, nil
}

var errNoToolName = errors.New("tool without a name")
