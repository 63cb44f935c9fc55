package pipeline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentwire/agentwire/preprocess/api"
)

// result is an API answer reduced to what every surface carries.
type result struct {
	Content   string
	Reasoning string
	Calls     []call
	Finish    string // stop | tool | length | filter
	Error     string // in-stream error message
	Usage     [2]int64
}

type call struct {
	Name string
	Args string // compacted JSON
}

func compactJSON(s string) string {
	var b bytes.Buffer
	if json.Compact(&b, []byte(s)) != nil {
		return s
	}
	return b.String()
}

type sseEvent struct {
	Event string
	Data  string
}

func splitSSE(b []byte) ([]sseEvent, error) {
	var out []sseEvent
	for _, block := range strings.Split(string(b), "\n\n") {
		if block == "" {
			continue
		}
		var ev sseEvent
		for _, line := range strings.Split(block, "\n") {
			switch {
			case strings.HasPrefix(line, "event: "):
				ev.Event = line[len("event: "):]
			case strings.HasPrefix(line, "data: "):
				ev.Data = line[len("data: "):]
			case strings.HasPrefix(line, ": "):
			default:
				return nil, fmt.Errorf("bad SSE line %q", line)
			}
		}
		out = append(out, ev)
	}
	return out, nil
}

// streamResult decodes an SSE body of api (choice 0).
func streamResult(a api.API, body []byte) (result, error) {
	evs, err := splitSSE(body)
	if err != nil {
		return result{}, err
	}
	var r result
	calls := map[int]*call{}
	var order []int
	add := func(i int, name string) {
		if _, ok := calls[i]; !ok {
			calls[i] = &call{Name: name}
			order = append(order, i)
		}
	}
	done := false
	for _, ev := range evs {
		if ev.Data == "[DONE]" {
			done = true
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(ev.Data), &m); err != nil {
			return r, fmt.Errorf("event %q: %v: %s", ev.Event, err, ev.Data)
		}
		if ev.Event == "error" && a != api.Messages {
			r.Error = str(path(m, "error", "message"))
			continue
		}
		switch a {
		case api.Chat, api.Completions:
			if u, ok := m["usage"].(map[string]any); ok {
				r.Usage = [2]int64{int64(num(u["prompt_tokens"])), int64(num(u["completion_tokens"]))}
			}
			chs, _ := m["choices"].([]any)
			for _, c := range chs {
				ch := c.(map[string]any)
				if num(ch["index"]) != 0 {
					continue
				}
				if f, ok := ch["finish_reason"].(string); ok {
					r.Finish = normFinish(f)
				}
				if a == api.Completions {
					r.Content += str(ch["text"])
					continue
				}
				d, _ := ch["delta"].(map[string]any)
				r.Content += str(d["content"])
				r.Reasoning += str(d["reasoning_content"])
				tcs, _ := d["tool_calls"].([]any)
				for _, tc := range tcs {
					tcm := tc.(map[string]any)
					i := int(num(tcm["index"]))
					add(i, str(path(tcm, "function", "name")))
					calls[i].Args += str(path(tcm, "function", "arguments"))
				}
			}
		case api.Messages:
			switch ev.Event {
			case "content_block_start":
				b := m["content_block"].(map[string]any)
				if b["type"] == "tool_use" {
					add(int(num(m["index"])), str(b["name"]))
				}
			case "content_block_delta":
				d := m["delta"].(map[string]any)
				switch d["type"] {
				case "text_delta":
					r.Content += str(d["text"])
				case "thinking_delta":
					r.Reasoning += str(d["thinking"])
				case "input_json_delta":
					calls[int(num(m["index"]))].Args += str(d["partial_json"])
				}
			case "message_delta":
				r.Finish = normFinish(str(path(m, "delta", "stop_reason")))
				r.Usage[1] = int64(num(path(m, "usage", "output_tokens")))
			case "message_stop":
				done = true
			case "error":
				r.Error = str(path(m, "error", "message"))
			}
		case api.Responses:
			switch ev.Event {
			case "response.output_text.delta":
				r.Content += str(m["delta"])
			case "response.reasoning_text.delta", "response.reasoning_summary_text.delta":
				// one channel per request: a stream that sent both would
				// double the reasoning and differ from the unary answer
				r.Reasoning += str(m["delta"])
			case "response.output_item.added":
				it := m["item"].(map[string]any)
				if it["type"] == "function_call" {
					add(int(num(m["output_index"])), str(it["name"]))
				}
			case "response.function_call_arguments.delta":
				calls[int(num(m["output_index"]))].Args += str(m["delta"])
			case "response.completed", "response.incomplete":
				done = true
				r.Finish = responsesFinish(m["response"].(map[string]any))
				r.Usage[1] = int64(num(path(m, "response", "usage", "output_tokens")))
			case "response.failed":
				r.Error = str(path(m, "response", "error", "message"))
			}
		}
	}
	for _, i := range order {
		c := calls[i]
		c.Args = compactJSON(c.Args)
		if !strings.HasPrefix(c.Args, "{") || !json.Valid([]byte(c.Args)) {
			continue // abandoned mid-stream: the unary answer omits it
		}
		r.Calls = append(r.Calls, *c)
	}
	if !done && r.Error == "" {
		return r, fmt.Errorf("stream did not end properly")
	}
	if a == api.Responses && r.Finish == "stop" && len(r.Calls) > 0 {
		r.Finish = "tool"
	}
	return r, nil
}

func responsesFinish(resp map[string]any) string {
	switch resp["status"] {
	case "incomplete":
		if str(path(resp, "incomplete_details", "reason")) == "content_filter" {
			return "filter"
		}
		return "length"
	}
	return "stop"
}

// unaryResult decodes a unary body of api (choice 0).
func unaryResult(a api.API, body []byte) (result, error) {
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		return result{}, err
	}
	var r result
	switch a {
	case api.Chat, api.Completions:
		ch := m["choices"].([]any)[0].(map[string]any)
		r.Finish = normFinish(str(ch["finish_reason"]))
		r.Usage = [2]int64{int64(num(path(m, "usage", "prompt_tokens"))), int64(num(path(m, "usage", "completion_tokens")))}
		if a == api.Completions {
			r.Content = str(ch["text"])
			return r, nil
		}
		msg := ch["message"].(map[string]any)
		r.Content = str(msg["content"])
		switch rc := msg["reasoning_content"].(type) {
		case string:
			r.Reasoning = rc
		case []any:
			for _, s := range rc {
				r.Reasoning += str(s)
			}
		}
		tcs, _ := msg["tool_calls"].([]any)
		for _, tc := range tcs {
			tcm := tc.(map[string]any)
			r.Calls = append(r.Calls, call{Name: str(path(tcm, "function", "name")), Args: compactJSON(str(path(tcm, "function", "arguments")))})
		}
	case api.Messages:
		r.Finish = normFinish(str(m["stop_reason"]))
		r.Usage[1] = int64(num(path(m, "usage", "output_tokens")))
		for _, b := range m["content"].([]any) {
			bm := b.(map[string]any)
			switch bm["type"] {
			case "text":
				r.Content += str(bm["text"])
			case "thinking":
				r.Reasoning += str(bm["thinking"])
			case "tool_use":
				in, _ := json.Marshal(bm["input"])
				r.Calls = append(r.Calls, call{Name: str(bm["name"]), Args: string(in)})
			}
		}
	case api.Responses:
		r.Finish = responsesFinish(m)
		r.Usage[1] = int64(num(path(m, "usage", "output_tokens")))
		for _, it := range m["output"].([]any) {
			im := it.(map[string]any)
			switch im["type"] {
			case "message":
				for _, c := range im["content"].([]any) {
					r.Content += str(c.(map[string]any)["text"])
				}
			case "reasoning":
				cs, _ := im["content"].([]any)
				ss, _ := im["summary"].([]any)
				for _, c := range append(cs, ss...) {
					r.Reasoning += str(c.(map[string]any)["text"])
				}
			case "function_call":
				r.Calls = append(r.Calls, call{Name: str(im["name"]), Args: compactJSON(str(im["arguments"]))})
			}
		}
		if r.Finish == "stop" && len(r.Calls) > 0 {
			r.Finish = "tool"
		}
	}
	return r, nil
}

// normalizeArgs makes Anthropic's re-encoded input comparable with the
// other surfaces' argument strings (key order kept by compacting the
// original string through a map would not be: compare as values).
func sameArgs(a, b string) bool {
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return a == b
	}
	xb, _ := json.Marshal(x)
	yb, _ := json.Marshal(y)
	return string(xb) == string(yb)
}

func normFinish(s string) string {
	switch s {
	case "tool_calls", "tool_use":
		return "tool"
	case "length", "max_tokens":
		return "length"
	case "content_filter", "refusal":
		return "filter"
	case "":
		return ""
	}
	return "stop"
}

func path(m map[string]any, keys ...string) any {
	var v any = m
	for _, k := range keys {
		mm, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = mm[k]
	}
	return v
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func num(v any) float64 {
	f, _ := v.(float64)
	return f
}
