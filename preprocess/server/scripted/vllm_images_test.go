package scripted

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agentwire/agentwire/tokenizers"
	"github.com/stretchr/testify/require"
)

// byteTok is a tokenizer for tests: one id per byte, and the Qwen-VL
// vision markers and ChatML's as single ids from 1000 on.
type byteTok struct{}

var byteTokSpecial = []string{"<|vision_start|>", "<|image_pad|>", "<|vision_end|>", "<|im_start|>", "<|im_end|>"}

func (byteTok) Encode(text string, _ bool) ([]uint32, error) {
	var ids []uint32
outer:
	for len(text) > 0 {
		for i, s := range byteTokSpecial {
			if strings.HasPrefix(text, s) {
				ids = append(ids, uint32(1000+i))
				text = text[len(s):]
				continue outer
			}
		}
		ids = append(ids, uint32(text[0]))
		text = text[1:]
	}
	return ids, nil
}

func (t byteTok) EncodeSegments(segs []tokenizers.Segment, add bool) ([]uint32, error) {
	var ids []uint32
	for _, s := range segs {
		b, _ := t.Encode(s.Text, add)
		ids = append(ids, b...)
	}
	return ids, nil
}

func (byteTok) Decode(ids []uint32, _ bool) (string, error) {
	var b strings.Builder
	for _, id := range ids {
		if id >= 1000 && int(id-1000) < len(byteTokSpecial) {
			b.WriteString(byteTokSpecial[id-1000])
		} else if id < 256 {
			b.WriteByte(byte(id))
		}
	}
	return b.String(), nil
}

func (byteTok) TokenToID(token string) (uint32, bool) {
	for i, s := range byteTokSpecial {
		if s == token {
			return uint32(1000 + i), true
		}
	}
	return 0, false
}

func (byteTok) IDToToken(id uint32) (string, bool) {
	if id >= 1000 && int(id-1000) < len(byteTokSpecial) {
		return byteTokSpecial[id-1000], true
	}
	return "", false
}

func (byteTok) VocabSize() int            { return 1000 + len(byteTokSpecial) }
func (byteTok) SpecialTokenIDs() []uint32 { return []uint32{1000, 1001, 1002, 1003, 1004} }

// TestVLLMImageCache: the token-in endpoint reports prefix-cache hits as
// vLLM does, the block holding an image's placeholder keyed by the part's
// uuid: the same ids with another image hit only the blocks before it;
// the same image resent hits, its expansion counted as cached too.
func TestVLLMImageCache(t *testing.T) {
	srv := httptest.NewServer(&VLLM{Tok: byteTok{}, Model: "m"})
	t.Cleanup(srv.Close)
	prompt := "<|im_start|>user\nWhat is in this screenshot? " + VisionPlaceholder + " Describe it.<|im_end|>\n<|im_start|>assistant\n"
	ids, _ := byteTok{}.Encode(prompt, false)
	at := -1
	for i, id := range ids {
		if id == 1001 {
			at = i
		}
	}
	const block = 16 // the default cache's block
	before, whole := at/block*block, (len(ids)-1)/block*block
	require.GreaterOrEqual(t, at, block, "the image must sit inside the prompt: at %d of %d ids", at, len(ids))
	require.Less(t, before, whole, "the image must sit inside the prompt: at %d of %d ids", at, len(ids))
	var pngBytes bytes.Buffer
	require.NoError(t, png.Encode(&pngBytes, image.NewGray(image.Rect(0, 0, 64, 32))))
	url := "data:image/png;base64," + base64.StdEncoding.EncodeToString(pngBytes.Bytes()) // 2 tokens: 1 more than its placeholder
	idsJSON, _ := json.Marshal(ids)
	for i, tc := range []struct {
		uuid   string
		cached int
	}{
		{"u1", 0},
		{"u2", before},
		{"u1", whole + 1},
		{"u2", whole + 1},
	} {
		body := fmt.Sprintf(`{"token_ids":%s,"content_parts":[{"type":"image_url","url":%q,"uuid":%q}],"sampling_params":{"max_tokens":500},"stream":true}`, idsJSON, url, tc.uuid)
		resp, err := http.Post(srv.URL+"/inference/v1/generate", "application/json", strings.NewReader(body))
		require.NoError(t, err)
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var last struct {
			Usage *struct {
				PromptTokens int `json:"prompt_tokens"`
				Details      struct {
					Cached int `json:"cached_tokens"`
				} `json:"prompt_tokens_details"`
			} `json:"usage"`
		}
		for _, line := range strings.Split(string(b), "\n") {
			if data, ok := strings.CutPrefix(line, "data: "); ok && strings.Contains(data, `"usage":{`) {
				require.NoError(t, json.Unmarshal([]byte(data), &last))
			}
		}
		require.Equal(t, 200, resp.StatusCode, "request %d (%s): %d usage %+v, want %d cached of %d: %.300s", i, tc.uuid, resp.StatusCode, last.Usage, tc.cached, len(ids)+1, b)
		require.NotNil(t, last.Usage, "request %d (%s): %d usage %+v, want %d cached of %d: %.300s", i, tc.uuid, resp.StatusCode, last.Usage, tc.cached, len(ids)+1, b)
		require.Equal(t, tc.cached, last.Usage.Details.Cached, "request %d (%s): %d usage %+v, want %d cached of %d: %.300s", i, tc.uuid, resp.StatusCode, last.Usage, tc.cached, len(ids)+1, b)
		require.Equal(t, len(ids)+1, last.Usage.PromptTokens, "request %d (%s): %d usage %+v, want %d cached of %d: %.300s", i, tc.uuid, resp.StatusCode, last.Usage, tc.cached, len(ids)+1, b)
	}

	// The scripted engine serves images only: another part is refused.
	body := fmt.Sprintf(`{"token_ids":%s,"content_parts":[{"type":"input_audio","url":"x"}],"sampling_params":{"max_tokens":5},"stream":true}`, idsJSON)
	resp, err := http.Post(srv.URL+"/inference/v1/generate", "application/json", strings.NewReader(body))
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusBadRequest, resp.StatusCode, "audio part: %d", resp.StatusCode)
}
