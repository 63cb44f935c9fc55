package parsers

import (
	"errors"
	"testing"
)

// combination is one pairing of a tool and a reasoning parser and what Parse
// makes of a framing grammar's sample output with it: the content and the
// number of calls (reasoning is always "r"), or an error.
type combination struct {
	tool, reasoning string
	content         string
	calls           int
	err             error
}

// checkCombinations pins how a framing grammar (one machine for both roles)
// pairs with parsers: with its counterpart, alone on either side, and with
// another family (an error).
func checkCombinations(t *testing.T, out string, cases []combination) {
	t.Helper()
	for _, tc := range cases {
		cfg := Config{ToolParser: tc.tool, ReasoningParser: tc.reasoning}
		res, err := Parse(cfg, out)
		if tc.err != nil {
			if !errors.Is(err, tc.err) {
				t.Errorf("%+v: error %v, want %v", cfg, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%+v: %v", cfg, err)
		}
		if res.Reasoning != "r" || res.Content != tc.content || len(res.Calls) != tc.calls {
			t.Errorf("%+v: reasoning %q, content %q, %d calls; want r, %q, %d", cfg, res.Reasoning, res.Content, len(res.Calls), tc.content, tc.calls)
		}
	}
}
