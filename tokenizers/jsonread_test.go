package tokenizers

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestJSONReaderVocab checks the fast reader against encoding/json on
// vocabulary keys with every kind of escape.
func TestJSONReaderVocab(t *testing.T) {
	vocab := `{"a":0,"\u0120b":1,"\"":2,"\\":3,"\/":4,"\b\f\n\r\t":5,"\ud83d\ude00":6,"\ud83d":7,"\ude00x":8,"é":9, "sp ace" : 10 }`
	var want map[string]uint32
	if err := json.Unmarshal([]byte(vocab), &want); err != nil {
		t.Fatal(err)
	}
	r := &jsonReader{b: []byte(vocab)}
	got := map[string]uint32{}
	r.object(func(k []byte) { got[string(k)] = r.uint32() })
	if r.err != nil {
		t.Fatal(r.err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("vocab (-encoding/json +reader):\n%s", diff)
	}
}

func TestJSONReaderMerges(t *testing.T) {
	for _, js := range []string{
		`{"model":{"type":"BPE","vocab":{"a":0,"b":1,"ab":2,"\"":3,"a\"":4},"merges":["a b","a \""]}}`,
		`{"model":{"type":"BPE","merges":[["a","b"],["a","\""]],"vocab":{"a":0,"b":1,"ab":2,"\"":3,"a\"":4}}}`,
	} {
		tok, err := FromJSON([]byte(js))
		if err != nil {
			t.Fatalf("%s: %v", js, err)
		}
		// No pre-tokenizer: one word; merges "a b" (rank 0), then `a "`.
		if got := mustEncode(t, tok, `ab"a"`); !cmp.Equal(got, []uint32{2, 3, 4}) {
			t.Errorf("%s: Encode = %v, want [2 3 4]", js, got)
		}
	}
}

func TestJSONReaderErrors(t *testing.T) {
	for _, js := range []string{
		``, `{`, `{"model":`, `{"model":{"vocab":{"a":-1}}}`, `{"model":{"vocab":{"a":99999999999}}}`,
		`{"model":{"vocab":{"a":0},"merges":[1]}}`, `{"model":{"vocab":{"a":0},"merges":[["a"]]}}`,
		`{"model":{"vocab":{"a":0},"merges":["ab"]}}`, `{"model":{"vocab":{"\x":0}}}`, `{"model":{"vocab":{"\u12":0}}}`,
		`{"model":{"vocab":{}}} x`, `{"model":{"vocab":{"a":16777216}}}`,
		`{"model":{"vocab":{},"type":BPE}}`, `[]`, `{"added_tokens":[{]}`,
	} {
		if _, err := FromJSON([]byte(js)); !errors.Is(err, ErrInvalid) && !errors.Is(err, ErrUnsupported) {
			t.Errorf("FromJSON(%q) err = %v, want ErrInvalid", js, err)
		}
	}
}
