package preprocess

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestShortToolID(t *testing.T) {
	for in, want := range map[string]string{
		"a1B2c3D4e":                              "a1B2c3D4e",
		"toolu_0123456789abcdef0123456789abcdef": "789abcdef",
		"call_0123456789abcdef01234567":          "abcdef01234567"[5:],
		"functions.Bash:10":                      "tionsBash10"[2:],
	} {
		require.Equal(t, want, shortToolID(in), in)
	}
	for _, in := range []string{"call_1", "", "x-y", "日本語"} {
		got := shortToolID(in)
		require.True(t, isShortID(got), "%q → %q", in, got)
		require.Equal(t, got, shortToolID(in), "deterministic")
	}
	require.NotEqual(t, shortToolID("call_1"), shortToolID("call_2"))
}

// TestShortToolIDsProbe: only the template that validates 9-character ids
// (Mistral Nemo's) gets short ids.
func TestShortToolIDsProbe(t *testing.T) {
	files, err := filepath.Glob("../testdata/chattemplate/templates/*.jinja")
	require.NoError(t, err)
	var short []string
	for _, f := range files {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		tm, err := newTemplate(TemplateDefault, string(src), nil)
		if err != nil {
			continue
		}
		if tm.ShortToolIDs {
			short = append(short, strings.TrimSuffix(filepath.Base(f), ".jinja"))
		}
	}
	require.Equal(t, []string{"mistral_nemo"}, short)
}
