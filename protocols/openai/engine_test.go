package openai_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentwire/agentwire/protocols/internal/jsonx"
	"github.com/agentwire/agentwire/protocols/internal/testutil"
	"github.com/agentwire/agentwire/protocols/openai"
	"github.com/agentwire/agentwire/protocols/sse"
)

// engineChunks returns the raw chunk JSON values of an engine stream file.
func engineChunks(t *testing.T, path string) [][]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	switch {
	case strings.HasSuffix(path, ".sse"):
		r := sse.NewReader(bytes.NewReader(b), 0)
		for {
			ev, err := r.Next()
			if err != nil {
				break
			}
			if string(ev.Data) != "[DONE]" {
				out = append(out, bytes.Clone(ev.Data))
			}
		}
	case strings.HasSuffix(path, ".jsonl"):
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			line := bytes.TrimSpace(sc.Bytes())
			if len(line) == 0 || bytes.HasPrefix(line, []byte("//")) {
				continue
			}
			out = append(out, bytes.Clone(line))
		}
	default:
		var f struct {
			InputStream []struct {
				Data json.RawMessage `json:"data"`
			} `json:"input_stream"`
		}
		if err := json.Unmarshal(b, &f); err != nil {
			t.Fatal(err)
		}
		for _, c := range f.InputStream {
			out = append(out, c.Data)
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s: no chunks", path)
	}
	return out
}

func TestEngineChunksDecode(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "engine", "*"))
	if len(files) < 8 {
		t.Fatalf("engine fixtures missing: %v", files)
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			var content, reasoning, args strings.Builder
			finishes := 0
			for i, raw := range engineChunks(t, path) {
				var c openai.ChatChunk
				if err := jsonx.Unmarshal(raw, &c); err != nil {
					t.Fatalf("chunk %d: %v\n%s", i, err, raw)
				}
				out, err := jsonx.Marshal(c)
				if err != nil {
					t.Fatal(err)
				}
				in, back := testutil.DropNulls(testutil.Generic(t, raw)), testutil.DropNulls(testutil.Generic(t, out))
				// Trimmed upstream fixtures lack the required envelope
				// members, which the typed chunk always writes.
				for _, k := range []string{"created", "model", "object"} {
					if _, ok := in.(map[string]any)[k]; !ok {
						delete(back.(map[string]any), k)
					}
				}
				if d := cmp.Diff(in, back); d != "" {
					t.Fatalf("chunk %d lost data (-in +out):\n%s", i, d)
				}
				for _, ch := range c.Choices {
					content.WriteString(ch.Delta.Content.Value())
					reasoning.WriteString(ch.Delta.ReasoningContent.Value())
					for _, tc := range ch.Delta.ToolCalls {
						if tc.Function != nil {
							args.WriteString(tc.Function.Arguments.Value())
						}
					}
					if ch.FinishReason.Valid() {
						finishes++
					}
				}
			}
			if finishes != 1 {
				t.Errorf("%d finish reasons", finishes)
			}
			if content.Len()+reasoning.Len()+args.Len() == 0 {
				t.Error("no text decoded")
			}
		})
	}
}
