package chattemplate

import (
	"encoding/json"
	"os"
	"testing"
)

// Throwaway differential check (not committed): DIFF_CASES=file.jsonl.
func TestZZDiff(t *testing.T) {
	path := os.Getenv("DIFF_CASES")
	if path == "" {
		t.Skip()
	}
	cases := readJSONLines[expressionGolden](t, path)
	in := Input{Messages: json.RawMessage(`[{"role": "user", "content": "hi"}]`), AddGenerationPrompt: true, BOSToken: "<s>", EOSToken: "</s>"}
	bad := 0
	for _, c := range cases {
		tmpl, err := Parse(c.Template, Options{Now: goldenNow})
		var got string
		if err == nil {
			got, err = tmpl.Render(in)
		}
		if d := compare(got, err, c.goldenResult); d != "" {
			bad++
			if bad <= 60 {
				e := ""
				if c.Error != nil {
					e = *c.Error
				}
				t.Errorf("%s\n   oracle err=%q\n   %s", c.Template, e, d)
			}
		}
	}
	t.Logf("%d/%d differ", bad, len(cases))
}
