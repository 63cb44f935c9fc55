package responses_test

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentwire/agentwire/protocols"
	. "github.com/agentwire/agentwire/protocols/internal/testutil"
	"github.com/agentwire/agentwire/protocols/responses"
	"github.com/agentwire/agentwire/protocols/sse"
)

// events parses an emitter's output into generic event values.
func events(t *testing.T, out []byte) []map[string]any {
	t.Helper()
	r := sse.NewReader(bytes.NewReader(out), 1<<20)
	var evs []map[string]any
	for {
		ev, err := r.Next()
		if err == io.EOF {
			return evs
		}
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(ev.Data, &m); err != nil {
			t.Fatalf("%s: %v", ev.Data, err)
		}
		evs = append(evs, m)
	}
}

var routes = responses.ToolRoutes{
	"spawn_agent": {Namespace: "multi_agent_v1"},
	"apply_patch": {Custom: true},
	"mcp_edit":    {Namespace: "mcp__files", Custom: true},
}

func TestEmitterNamespacedCall(t *testing.T) {
	e := responses.NewEmitter(responses.EmitterConfig{Tools: routes})
	out := Run(e, []Step{S(0, "call_1", "spawn_agent"), A(0, `{"message":"hi"}`), E(0),
		S(1, "call_2", "plain"), A(1, `{}`), E(1), F(protocols.FinishToolCalls, protocols.Usage{})})
	var ns []string
	for _, ev := range events(t, out) {
		if item, ok := ev["item"].(map[string]any); ok {
			ns = append(ns, ev["type"].(string)+" "+item["name"].(string)+" "+str(item["namespace"]))
		}
	}
	want := []string{
		"response.output_item.added spawn_agent multi_agent_v1",
		"response.output_item.done spawn_agent multi_agent_v1",
		"response.output_item.added plain ",
		"response.output_item.done plain ",
	}
	if d := cmp.Diff(want, ns); d != "" {
		t.Errorf("items (-want +got):\n%s", d)
	}
	output := e.Output()
	if got := output[0].OfFunctionCall.Namespace; got != "multi_agent_v1" {
		t.Errorf("Output namespace %q", got)
	}
	if got := output[1].OfFunctionCall.Namespace; got != "" {
		t.Errorf("Output namespace %q", got)
	}
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func TestEmitterCustomToolCall(t *testing.T) {
	patch := "*** Begin Patch\n*** Add File: a.go\n+package a \"é\" 😀\n*** End Patch"
	args, _ := json.Marshal(map[string]string{"input": patch})
	for name, frags := range map[string][]string{
		"whole":      {string(args)},
		"by byte":    strings.Split(string(args), ""),
		"spaced":     {` { "input" :`, ` "*** Begin Patch\n*** Add File: a.go\n+package a \"\u00e9\" \ud83d`, `\ude00\n*** End Patch"}`},
		"other keys": {`{"path":"a","input":"` + strings.ReplaceAll(string(args[10:len(args)-2]), "", "") + `"}`},
		"raw text":   {patch[:10], patch[10:]},
	} {
		t.Run(name, func(t *testing.T) {
			e := responses.NewEmitter(responses.EmitterConfig{Tools: routes})
			steps := []Step{C("Patching."), S(0, "call_p", "apply_patch")}
			for _, f := range frags {
				steps = append(steps, A(0, f))
			}
			steps = append(steps, E(0), F(protocols.FinishToolCalls, protocols.Usage{}))
			out := Run(e, steps)
			var deltas strings.Builder
			var done string
			var types []string
			var added, final map[string]any
			for _, ev := range events(t, out) {
				typ := ev["type"].(string)
				switch typ {
				case responses.EventCustomInputDelta:
					deltas.WriteString(ev["delta"].(string))
					continue
				case responses.EventCustomInputDone:
					done = ev["input"].(string)
				case responses.EventFunctionArgsDelta, responses.EventFunctionArgsDone:
					t.Errorf("function call event %s for a custom tool", typ)
				case responses.EventOutputItemAdded:
					if item := ev["item"].(map[string]any); item["type"] == "custom_tool_call" {
						added = item
					}
				case responses.EventCompleted:
					final = ev["response"].(map[string]any)["output"].([]any)[1].(map[string]any)
				}
				types = append(types, typ)
			}
			if deltas.String() != patch || done != patch {
				t.Errorf("deltas %q, done %q, want %q", deltas.String(), done, patch)
			}
			if added["input"] != "" || added["call_id"] != "call_p" || added["name"] != "apply_patch" || !strings.HasPrefix(added["id"].(string), "ctc_") {
				t.Errorf("added item %v", added)
			}
			if final["type"] != "custom_tool_call" || final["input"] != patch || final["status"] != "completed" {
				t.Errorf("final item %v", final)
			}
			wantTypes := []string{"response.created", "response.in_progress",
				"response.output_item.added", "response.content_part.added", "response.output_text.delta",
				"response.output_text.done", "response.content_part.done", "response.output_item.done",
				"response.output_item.added", "response.custom_tool_call_input.done", "response.output_item.done",
				"response.completed"}
			if d := cmp.Diff(wantTypes, types); d != "" {
				t.Errorf("events (-want +got):\n%s", d)
			}
			if got := e.Output()[1].OfCustomToolCall; got == nil || got.Input != patch {
				t.Errorf("Output %+v", e.Output()[1])
			}
		})
	}
}

func TestEmitterNamespacedCustomToolCall(t *testing.T) {
	e := responses.NewEmitter(responses.EmitterConfig{Tools: routes})
	out := Run(e, []Step{S(0, "c", "mcp_edit"), A(0, `{"input":"x"}`), E(0), F(protocols.FinishToolCalls, protocols.Usage{})})
	if !bytes.Contains(out, []byte(`"type":"custom_tool_call","id":`)) || !bytes.Contains(out, []byte(`"name":"mcp_edit","namespace":"mcp__files","input":"x","status":"completed"`)) {
		t.Errorf("output:\n%s", out)
	}
}

func TestCustomToolInput(t *testing.T) {
	for args, want := range map[string]string{
		`{"input":"a\nb"}`:           "a\nb",
		` {"x":1, "input":"\u00e9"}`: "é",
		`"just text"`:                "just text",
		`*** Begin Patch`:            "*** Begin Patch",
		`{"input":5}`:                `{"input":5}`,
		`{"input":"unterminated`:     `{"input":"unterminated`,
	} {
		if got := string(responses.CustomToolInput(nil, []byte(args))); got != want {
			t.Errorf("CustomToolInput(%s) = %q, want %q", args, got, want)
		}
	}
}
