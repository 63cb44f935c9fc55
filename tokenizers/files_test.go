package tokenizers

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
)

// setupHint is how to get the large tokenizer files tests need.
const setupHint = "run `bash .ci/setup.d/tokenizers.sh` at the repository root to fetch them"

// setupSkips counts the tests and benchmarks skipped because the setup
// script has not placed the large files.
var setupSkips atomic.Int32

// requireLarge, set from the environment variable
// AGENTWIRE_REQUIRE_LARGE_TOKENIZERS=1, turns those skips into failures, for
// CI after the setup script (go test in package-list mode prints nothing of
// a passing package, so TestMain's line is only seen in directory mode or
// with -v).
var requireLarge = os.Getenv("AGENTWIRE_REQUIRE_LARGE_TOKENIZERS") == "1"

// skipSetup skips tb because a large file is missing, counting the skip so
// that TestMain can report it without -v.
func skipSetup(tb testing.TB, missing string) {
	tb.Helper()
	if requireLarge {
		tb.Fatalf("%s is missing (AGENTWIRE_REQUIRE_LARGE_TOKENIZERS=1): %s", missing, setupHint)
	}
	setupSkips.Add(1)
	tb.Skipf("%s is missing: %s", missing, setupHint)
}

// TestMain reports, in one line on stderr, how many tests skipped because
// the large tokenizer files are absent: without -v a skip is silent, and a
// green run that checked none of the real tokenizers must not look like one
// that did.
func TestMain(m *testing.M) {
	code := m.Run()
	if n := setupSkips.Load(); n > 0 {
		fmt.Fprintf(os.Stderr, "tokenizers: %d tests skipped: the large tokenizer files are missing from %s; %s\n", n, largeDir, setupHint)
	}
	os.Exit(code)
}

// largeDir holds the tokenizer files the setup script places.
var largeDir = filepath.Join("testdata", "large")

var (
	loadMu sync.Mutex
	loaded = map[string]*BPE{}
)

// loadLarge loads testdata/large/<rel>, once per test binary, or skips the
// test when the file is absent.
func loadLarge(tb testing.TB, rel string) *BPE {
	tb.Helper()
	path := filepath.Join(largeDir, rel)
	if _, err := os.Stat(path); err != nil {
		skipSetup(tb, path)
	}
	return loadLargeQuiet(tb, rel)
}

// skipTB is a minimal testing.TB for optional loads outside a test.
type skipTB struct{ testing.TB }

func (*skipTB) Helper()               {}
func (*skipTB) Fatalf(string, ...any) { panic("load failed") }
func (*skipTB) Skipf(string, ...any)  { panic("skip") }

// loadLargeQuiet loads testdata/large/<rel> once per test binary; it skips
// without counting the skip (fuzz targets use it for optional extras).
func loadLargeQuiet(tb testing.TB, rel string) *BPE {
	path := filepath.Join(largeDir, rel)
	if _, err := os.Stat(path); err != nil {
		tb.Skipf("%s is missing: %s", path, setupHint)
	}
	loadMu.Lock()
	defer loadMu.Unlock()
	if t, ok := loaded[path]; ok {
		return t
	}
	t, err := LoadFile(path)
	if err != nil {
		tb.Fatalf("LoadFile(%s): %v", path, err)
	}
	loaded[path] = t
	return t
}

// goldenModels are the tokenizer.json files with goldens from Hugging Face's
// library (testdata/golden/<name>.json, written by testdata/gen/gen.js).
var goldenModels = []string{"tiny", "tiny_flags", "tiny_gpt2", "tiny_metaspace", "tiny_unk", "tiny_regexp", "tiny_metaspace_first", "tiny_words", "qwen3", "llama3", "gptoss", "deepseek_v3", "mistral"}

// tinyFiles are the small committed tokenizers under testdata/tiny; the
// variants exercise components the large files do not use (added-token
// flags, Lowercase, ByteLevel's own regex, Digits, a BOS+EOS template,
// Metaspace, unk, WhitespaceSplit, Strip, Replace, NFKC).
var tinyFiles = map[string]string{
	"tiny": "tokenizer.json", "tiny_flags": "flags.json", "tiny_gpt2": "gpt2.json",
	"tiny_metaspace": "metaspace.json", "tiny_unk": "unk.json", "tiny_regexp": "regexp.json", "tiny_metaspace_first": "metaspace_first.json", "tiny_words": "words.json",
}

// modelFile returns the tokenizer.json of a golden model: tiny is committed
// under testdata/tiny, the others are placed by the setup script.
func modelFile(tb testing.TB, model string) *BPE {
	tb.Helper()
	if f, ok := tinyFiles[model]; ok {
		t, err := LoadFile(filepath.Join("testdata", "tiny", f))
		if err != nil {
			tb.Fatal(err)
		}
		return t
	}
	return loadLarge(tb, model+"/tokenizer.json")
}

// loadTiny loads the small committed tokenizer (296 byte-level tokens, NFC,
// the Qwen2 split pattern, ChatML specials).
func loadTiny(tb testing.TB) *BPE {
	tb.Helper()
	t, err := LoadFile(filepath.Join("testdata", "tiny", "tokenizer.json"))
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

type golden struct {
	Model  string `json:"model"`
	Encode []struct {
		Text             string   `json:"text"`
		AddSpecialTokens bool     `json:"add_special_tokens"`
		IDs              []uint32 `json:"ids"`
	} `json:"encode"`
	EncodePlain []struct {
		Text string   `json:"text"`
		IDs  []uint32 `json:"ids"`
	} `json:"encode_plain"`
	Decode []struct {
		IDs               []uint32 `json:"ids"`
		SkipSpecialTokens bool     `json:"skip_special_tokens"`
		Text              string   `json:"text"`
	} `json:"decode"`
}

func loadGolden(tb testing.TB, model string) *golden {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "golden", model+".json"))
	if err != nil {
		tb.Fatal(err)
	}
	var g golden
	if err := json.Unmarshal(data, &g); err != nil {
		tb.Fatal(err)
	}
	return &g
}

// corpus returns the texts of testdata/corpus.json.
func corpus(tb testing.TB) []string {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "corpus.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var c struct {
		Texts []string `json:"texts"`
	}
	if err := json.Unmarshal(data, &c); err != nil {
		tb.Fatal(err)
	}
	return c.Texts
}
