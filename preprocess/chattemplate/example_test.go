package chattemplate_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/agentwire/agentwire/preprocess/chattemplate"
)

func Example() {
	tmpl, err := chattemplate.Parse(`{%- for m in messages %}<|{{ m.role }}|>{{ m.content }}
{% if m.tool_calls %}{% for c in m.tool_calls %}<call>{{ c.function.arguments | tojson }}</call>
{% endfor %}{% endif %}{% endfor %}
{%- if add_generation_prompt %}<|assistant|>{% if not enable_thinking %}<think></think>{% endif %}{% endif %}`,
		chattemplate.Options{})
	if err != nil {
		panic(err)
	}
	prompt, err := tmpl.Render(chattemplate.Input{
		Messages: json.RawMessage(`[
			{"role": "user", "content": "Weather in Zürich?"},
			{"role": "assistant", "content": "", "tool_calls": [{"function": {"name": "get_weather", "arguments": {"city": "Zürich", "days": 2, "margin": 1.0}}}]},
			{"role": "tool", "content": "21 °C"}]`),
		AddGenerationPrompt: true,
		Kwargs:              json.RawMessage(`{"enable_thinking": false}`),
	})
	if err != nil {
		panic(err)
	}
	fmt.Print(prompt)
	// Output:
	// <|user|>Weather in Zürich?
	// <|assistant|>
	// <call>{"city": "Zürich", "days": 2, "margin": 1.0}</call>
	// <|tool|>21 °C
	// <|assistant|><think></think>
}

func ExampleTemplateError() {
	tmpl, err := chattemplate.Parse(`{% if messages[0].role != 'user' %}{{ raise_exception('Conversation must start with a user message') }}{% endif %}`,
		chattemplate.Options{Now: func() time.Time { return time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC) }})
	if err != nil {
		panic(err)
	}
	_, err = tmpl.Render(chattemplate.Input{Messages: json.RawMessage(`[{"role": "assistant", "content": "hi"}]`)})
	var te *chattemplate.TemplateError
	if errors.As(err, &te) {
		fmt.Println("400:", te.Message)
	}
	// Output:
	// 400: Conversation must start with a user message
}
