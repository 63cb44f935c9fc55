package tokenizers

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// agentTexts returns the agent-shaped corpus of testdata/agent (real Claude
// Code and Codex requests rendered by a chat template, code, diffs, JSON,
// non-Latin text; see its README), by file name.
func agentTexts(tb testing.TB) map[string]string {
	tb.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "agent", "*.txt"))
	if err != nil || len(paths) == 0 {
		tb.Fatalf("no agent corpus in testdata/agent: %v", err)
	}
	out := make(map[string]string, len(paths))
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		out[filepath.Base(p)] = string(data)
	}
	return out
}

// agentText is the whole agent corpus joined in file-name order.
func agentText(tb testing.TB) string {
	texts := agentTexts(tb)
	names := make([]string, 0, len(texts))
	for n := range texts {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		b.WriteString(texts[n])
	}
	return b.String()
}

// idsDigest is the SHA-256 of ids as little-endian uint32s (how
// testdata/gen/agent.js pins Hugging Face's ids).
func idsDigest(ids []uint32) string {
	buf := make([]byte, 4*len(ids))
	for i, id := range ids {
		binary.LittleEndian.PutUint32(buf[4*i:], id)
	}
	sum := sha256.Sum256(buf)
	return hex.EncodeToString(sum[:])
}

// TestAgentGolden checks the ids of the agent corpus against Hugging Face's
// library (count and digest per text, testdata/golden/agent.json). Llama 3's
// tiktoken.model holds the same ranks as its tokenizer.json, so it must give
// the same ids.
func TestAgentGolden(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "golden", "agent.json"))
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]map[string]struct {
		Count  int    `json:"count"`
		SHA256 string `json:"sha256"`
	}
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	texts := agentTexts(t)
	files := map[string]string{
		"qwen3": "qwen3/tokenizer.json", "llama3": "llama3/tokenizer.json", "gptoss": "gptoss/tokenizer.json",
		"deepseek_v3": "deepseek_v3/tokenizer.json", "mistral": "mistral/tokenizer.json",
		"llama3_tiktoken": "llama3_tiktoken/tiktoken.model",
	}
	for _, name := range []string{"qwen3", "llama3", "gptoss", "deepseek_v3", "mistral", "llama3_tiktoken"} {
		t.Run(name, func(t *testing.T) {
			tok := loadLarge(t, files[name])
			oracle := name
			if name == "llama3_tiktoken" {
				oracle = "llama3"
			}
			for file, w := range want[oracle] {
				text, ok := texts[file]
				if !ok {
					t.Fatalf("golden names %s, which is not in testdata/agent", file)
				}
				ids := tok.AppendEncode(nil, text, false)
				if len(ids) != w.Count || idsDigest(ids) != w.SHA256 {
					t.Errorf("%s: %d ids (digest %.12s), Hugging Face gives %d (%.12s)", file, len(ids), idsDigest(ids), w.Count, w.SHA256)
				}
				batch, err := tok.EncodeBatch([]string{text, text[:len(text)/2], "", text}, false)
				if err != nil {
					t.Fatal(err)
				}
				if idsDigest(batch[0]) != w.SHA256 || idsDigest(batch[3]) != w.SHA256 || len(batch[2]) != 0 {
					t.Errorf("%s: EncodeBatch ids differ from Encode's", file)
				}
			}
		})
	}
}

// TestEncodeAllocsLarge asserts that AppendEncode into a slice with room
// allocates nothing on the agent corpus for every file without a normalizer
// (non-ASCII text included), and on its ASCII lines for Qwen3, whose NFC
// normalizer leaves ASCII alone. (Mistral's Prepend and Replace normalizers
// rewrite the text and allocate.)
func TestEncodeAllocsLarge(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under -race")
	}
	text := agentText(t)
	var ascii strings.Builder
	for line := range strings.Lines(text) {
		if isASCII(line) {
			ascii.WriteString(line)
		}
	}
	cases := []struct{ name, file, text string }{
		{"llama3", "llama3/tokenizer.json", text},
		{"gptoss", "gptoss/tokenizer.json", text},
		{"deepseek_v3", "deepseek_v3/tokenizer.json", text},
		{"llama3_tiktoken", "llama3_tiktoken/tiktoken.model", text},
		{"kimi_k2", "kimi_k2/tiktoken.model", text},
		{"qwen3 ASCII", "qwen3/tokenizer.json", ascii.String()},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tok := loadLarge(t, c.file)
			dst := tok.AppendEncode(nil, c.text, true)
			if a := testing.AllocsPerRun(3, func() { dst = tok.AppendEncode(dst[:0], c.text, true) }); a != 0 {
				t.Errorf("AppendEncode of %d bytes allocates %v times, want 0", len(c.text), a)
			}
		})
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
