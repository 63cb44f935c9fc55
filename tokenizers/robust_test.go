package tokenizers

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tinyWith loads testdata/tiny/regexp.json with its top-level fields
// replaced by fields (raw JSON values).
func tinyWith(t *testing.T, fields map[string]string) (*BPE, error) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "tiny", "regexp.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f map[string]json.RawMessage
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	for k, v := range fields {
		f[k] = json.RawMessage(v)
	}
	data, err = json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	return FromJSON(data)
}

// TestRegexpFallbackTimeout checks that a split pattern with catastrophic
// backtracking, which the hand-written scanners do not know and which runs
// on the backtracking engine, fails the encode with ErrSplitTimeout instead
// of hanging it (unbounded, (a+)+$ takes many seconds on 25 bytes), and that
// the tokenizer keeps working for texts it can split.
func TestRegexpFallbackTimeout(t *testing.T) {
	tok, err := tinyWith(t, map[string]string{
		"pre_tokenizer": `{"type":"Sequence","pretokenizers":[{"type":"Split","pattern":{"Regex":"(a+)+$"},"behavior":"Isolated","invert":false},{"type":"ByteLevel","add_prefix_space":false,"trim_offsets":false,"use_regex":false}]}`,
	})
	if err != nil {
		t.Fatal(err)
	}
	ids, err := tok.Encode(strings.Repeat("a", 40)+"!", false)
	if !errors.Is(err, ErrSplitTimeout) || ids != nil {
		t.Fatalf("Encode = %v, %v; want ErrSplitTimeout", ids, err)
	}
	if !strings.Contains(err.Error(), "(a+)+$") {
		t.Errorf("error %q does not name the pattern", err)
	}
	if _, err := tok.EncodeBatch([]string{"ok", strings.Repeat("a", 40) + "!"}, false); !errors.Is(err, ErrSplitTimeout) {
		t.Errorf("EncodeBatch error = %v, want ErrSplitTimeout", err)
	}
	dst := []uint32{7}
	if got, err := tok.AppendEncodeChecked(dst, strings.Repeat("a", 40)+"!", false); !errors.Is(err, ErrSplitTimeout) || len(got) != 1 {
		t.Errorf("AppendEncodeChecked = %v, %v; want dst unextended and ErrSplitTimeout", got, err)
	}
	// AppendEncode cannot fail: it encodes the rest unsplit, losing no
	// byte, within the same time bound.
	text := strings.Repeat("a", 40) + "!" + strings.Repeat("b", 40)
	got := tok.AppendEncode(dst, text, false)
	if back, _ := tok.Decode(got[1:], false); back != text || got[0] != 7 {
		t.Errorf("AppendEncode after timeout decodes to %q (dst %v), want %q", back, got[:1], text)
	}
	// The same tokenizer still encodes text the pattern matches quickly.
	if ids, err := tok.Encode("aaa", false); err != nil || len(ids) == 0 {
		t.Errorf("Encode(aaa) = %v, %v", ids, err)
	}
}

// nested returns a component of type typ with the Sequence field list
// nested depth times around leaf.
func nested(list, leaf string, depth int) string {
	return strings.Repeat(`{"type":"Sequence","`+list+`":[`, depth) + leaf + strings.Repeat("]}", depth)
}

// TestNestingLimit checks that Sequence components nested beyond the limit
// fail to load quickly with a clear error, and that nesting up to it loads.
func TestNestingLimit(t *testing.T) {
	cases := []struct {
		field, list, leaf string
	}{
		{"normalizer", "normalizers", `{"type":"NFD"}`},
		{"pre_tokenizer", "pretokenizers", `{"type":"ByteLevel","add_prefix_space":false,"trim_offsets":false,"use_regex":false}`},
		{"decoder", "decoders", `{"type":"ByteLevel","add_prefix_space":false,"trim_offsets":false,"use_regex":false}`},
		{"post_processor", "processors", `{"type":"ByteLevel","add_prefix_space":false,"trim_offsets":false,"use_regex":false}`},
	}
	for _, c := range cases {
		t.Run(c.field, func(t *testing.T) {
			if _, err := tinyWith(t, map[string]string{c.field: nested(c.list, c.leaf, maxNesting)}); err != nil {
				t.Errorf("nesting %d: %v", maxNesting, err)
			}
			_, err := tinyWith(t, map[string]string{c.field: nested(c.list, c.leaf, 4000)})
			if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), c.field+": Sequence nested more than") {
				t.Errorf("nesting 4000: error %v", err)
			}
		})
	}
}
