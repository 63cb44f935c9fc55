package chattemplate

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// ErrNoTemplate is returned by FromTokenizerConfig when the configuration
// has no chat template of the requested name.
var ErrNoTemplate = errors.New("chattemplate: no chat template")

// FromTokenizerConfig returns a chat template of a Hugging Face
// tokenizer_config.json: its chat_template when that is a string, or the
// entry called name when it is a list of {"name", "template"} objects (name
// "" means "default"). The names present are returned too (nil for a single
// string template), so a caller can pick "tool_use" when it exists.
func FromTokenizerConfig(config []byte, name string) (source string, names []string, err error) {
	var cfg struct {
		ChatTemplate json.RawMessage `json:"chat_template"`
	}
	if err := json.Unmarshal(config, &cfg); err != nil {
		return "", nil, fmt.Errorf("chattemplate: tokenizer_config.json: %w", err)
	}
	if len(cfg.ChatTemplate) == 0 || string(cfg.ChatTemplate) == "null" {
		return "", nil, fmt.Errorf("%w in tokenizer_config.json", ErrNoTemplate)
	}
	var single string
	if err := json.Unmarshal(cfg.ChatTemplate, &single); err == nil {
		if name != "" && name != "default" {
			return "", nil, fmt.Errorf("%w named %q (the configuration has one unnamed template)", ErrNoTemplate, name)
		}
		return single, nil, nil
	}
	var list []namedTemplate
	if err := json.Unmarshal(cfg.ChatTemplate, &list); err != nil {
		return "", nil, fmt.Errorf("chattemplate: chat_template is neither a string nor a list of named templates: %w", err)
	}
	if name == "" {
		name = "default"
	}
	for _, t := range list {
		names = append(names, t.Name)
	}
	i := slices.IndexFunc(list, func(t namedTemplate) bool { return t.Name == name })
	if i < 0 {
		return "", names, fmt.Errorf("%w named %q (have %q)", ErrNoTemplate, name, names)
	}
	return list[i].Template, names, nil
}

type namedTemplate struct {
	Name     string `json:"name"`
	Template string `json:"template"`
}
