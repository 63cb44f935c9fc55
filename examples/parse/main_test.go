package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/require"
)

func TestRun(t *testing.T) {
	in := strings.Join([]string{
		`{"tool_parser":"hermes","reasoning_parser":"qwen3","input":"<think>r</think>hi<tool_call>{\"name\":\"f\",\"arguments\":{\"a\":1}}</tool_call>"}`,
		`not json`,
		``,
		`{"tool_parser":"nope","input":"x"}`,
		`{"tool_parser":"hermes","chunks":["<tool_","call>{\"name\":\"g\"}"],"tools":[{"type":"function","function":{"name":"g","parameters":{}}}]}`,
		`{"tool_parser":"hermes","input":"abc","chunks":["ab"]}`,
		`{"reasoning_parser":"qwen3","input":"done</think>ok","options":{"in_reasoning":true}}`,
		`{"tool_parser":"hermes","tools":{"bad":1},"input":"x"}`,
		`{"tool_parser":"hermes","input":"<tool_call>{\"name\": \"f\", \"arguments\": {\"x\": tru"}`,
	}, "\n")
	for _, chunk := range []int{0, 1, 3} {
		var out strings.Builder
		failed, err := run(strings.NewReader(in), &out, chunk)
		require.NoError(t, err, "chunk %d: failed=%v err=%v", chunk, failed, err)
		require.True(t, failed, "chunk %d: failed=%v err=%v", chunk, failed, err)
		var got []response
		for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
			var r response
			require.NoError(t, json.Unmarshal([]byte(line), &r), "output line %q", line)
			got = append(got, r)
		}
		want := []response{
			{Content: "hi", Reasoning: "r", Calls: []call{{Name: "f", Arguments: `{"a":1}`}}},
			{Calls: []call{}, Error: "x"},
			{Calls: []call{}, Error: "x"},
			{Calls: []call{{Name: "g", Arguments: `{}`}}},
			{Calls: []call{}, Error: "x"},
			{Content: "ok", Reasoning: "done", Calls: []call{}},
			{Calls: []call{}, Error: "x"},
			{Calls: []call{}, Abandoned: 1},
		}
		opts := []cmp.Option{
			cmpopts.IgnoreFields(call{}, "ID"),
			cmp.Comparer(func(a, b string) bool { return a == b || (a == "x" && b != "") || (b == "x" && a != "") }),
		}
		if diff := cmp.Diff(want, got, opts...); diff != "" {
			t.Errorf("chunk %d (-want +got):\n%s", chunk, diff)
		}
	}
}
