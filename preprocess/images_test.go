package preprocess

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/agentwire/agentwire/preprocess/api"
	"github.com/agentwire/agentwire/preprocess/engine"
	"github.com/agentwire/agentwire/protocols/anthropic"
)

// visionModel is Qwen3-VL: the Qwen3 tokenizer (which has the vision
// tokens), the Qwen3-VL chat template of testdata/chattemplate and a
// config.json with a vision_config.
func visionModel(tb testing.TB) *Model {
	tb.Helper()
	largeModel(tb, "qwen3") // skips without the large tokenizer files
	dir := tb.TempDir()
	for _, f := range []string{"../tokenizers/testdata/large/qwen3/tokenizer.json", "../tokenizers/testdata/large/qwen3/tokenizer_config.json", "../testdata/models/qwen3/generation_config.json"} {
		abs, err := filepath.Abs(f)
		require.NoError(tb, err)
		require.NoError(tb, os.Symlink(abs, filepath.Join(dir, filepath.Base(f))))
	}
	cfg := `{"architectures":["Qwen3VLMoeForConditionalGeneration"],"model_type":"qwen3_vl_moe","vision_config":{"patch_size":16},
		"image_token_id":151655,"text_config":{"max_position_embeddings":262144},"eos_token_id":151645}`
	require.NoError(tb, os.WriteFile(filepath.Join(dir, "config.json"), []byte(cfg), 0o644))
	tmpl, err := os.ReadFile("../testdata/chattemplate/templates/Qwen3-VL-30B-A3B-Instruct-Q8_0.jinja")
	require.NoError(tb, err)
	m, err := LoadModel(dir, ModelOptions{ChatTemplate: string(tmpl)})
	require.NoError(tb, err)
	require.True(tb, m.Vision)
	return m
}

// testPNG is a w×h PNG whose pixels depend on seed.
func testPNG(tb testing.TB, w, h int, seed uint8) []byte {
	tb.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.NRGBA{uint8(x) + seed, uint8(y), seed, 255})
		}
	}
	var b bytes.Buffer
	require.NoError(tb, png.Encode(&b, img))
	return b.Bytes()
}

func dataURL(b []byte) string { return "data:image/png;base64," + base64.StdEncoding.EncodeToString(b) }

func hashOf(b []byte) string { h := sha256.Sum256(b); return hex.EncodeToString(h[:]) }

// imageConversations are, for each API, a conversation with an image in
// a user turn and one inside a tool result, and its next turn (the same
// conversation resent with one more exchange). %[1]s is the user image's
// base64, %[2]s the tool result's.
var imageConversations = []struct {
	api        api.API
	turn, next string
}{
	{api.Chat,
		`{"model":"m","messages":[
			{"role":"user","content":[{"type":"text","text":"What is on this screen?"},{"type":"image_url","image_url":{"url":"data:image/png;base64,%[1]s"}}]},
			{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"view","arguments":"{\"path\":\"/s.png\"}"}}]},
			{"role":"tool","tool_call_id":"c1","content":[{"type":"text","text":"the file"},{"type":"image_url","image_url":{"url":"data:image/png;base64,%[2]s"}}]}%[3]s],
			"tools":[{"type":"function","function":{"name":"view","parameters":{"type":"object"}}}]}`,
		`,{"role":"assistant","content":"A button."},{"role":"user","content":"Thanks."}`},
	{api.Messages,
		`{"model":"m","max_tokens":100,"messages":[
			{"role":"user","content":[{"type":"text","text":"What is on this screen?"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"%[1]s"}}]},
			{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Read","input":{"file_path":"/s.png"}}]},
			{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"%[2]s"}}]}]}%[3]s],
			"tools":[{"name":"Read","input_schema":{"type":"object"}}]}`,
		`,{"role":"assistant","content":"A button."},{"role":"user","content":"Thanks."}`},
	{api.Responses,
		`{"model":"m","input":[
			{"role":"user","content":[{"type":"input_text","text":"What is on this screen?"},{"type":"input_image","image_url":"data:image/png;base64,%[1]s"}]},
			{"type":"function_call","call_id":"c1","name":"view_image","arguments":"{\"path\":\"/s.png\"}"},
			{"type":"function_call_output","call_id":"c1","output":[{"type":"input_image","image_url":"data:image/png;base64,%[2]s"}]}%[3]s],
			"tools":[{"type":"function","name":"view_image","parameters":{"type":"object"}}]}`,
		`,{"role":"assistant","content":"A button."},{"role":"user","content":"Thanks."}`},
}

func prepareImages(tb testing.TB, p *Preprocessor, a api.API, body string) (*Prepared, error) {
	tb.Helper()
	req, err := a.Decode([]byte(body), api.DecodeOptions{})
	require.NoError(tb, err, body)
	return p.Prepare(context.Background(), req)
}

// TestImagesEndToEnd: on every API an image in a user turn and one inside
// a tool result reach the engine request in order, each with one
// placeholder in the token ids, its bytes (the data URL) and its hash;
// the next turn keeps the ids as a prefix and the same hashes; the
// context accounting reserves the per-image budget.
func TestImagesEndToEnd(t *testing.T) {
	m := visionModel(t)
	pad, ok := m.Tokenizer.TokenToID("<|image_pad|>")
	require.True(t, ok)
	start, _ := m.Tokenizer.TokenToID("<|vision_start|>")
	user, tool := testPNG(t, 64, 32, 1), testPNG(t, 40, 30, 2)
	b64 := base64.StdEncoding.EncodeToString
	want := []engine.Image{
		{URL: dataURL(user), MediaType: "image/png", Hash: hashOf(user), Bytes: len(user), Width: 64, Height: 32},
		{URL: dataURL(tool), MediaType: "image/png", Hash: hashOf(tool), Bytes: len(tool), Width: 40, Height: 30},
	}
	for _, c := range imageConversations {
		t.Run(c.api.String(), func(t *testing.T) {
			p := New(m, Options{ImageTokens: 500})
			prep, err := prepareImages(t, p, c.api, fmt.Sprintf(c.turn, b64(user), b64(tool), ""))
			require.NoError(t, err)
			if d := cmp.Diff(want, prep.Engine.Images); d != "" {
				t.Errorf("images (-want +got):\n%s", d)
			}
			var at []int
			for i, id := range prep.Engine.PromptIDs {
				if id == pad {
					at = append(at, i)
					require.Equal(t, start, prep.Engine.PromptIDs[i-1], "placeholder %d", len(at))
				}
			}
			require.Len(t, at, 2, "one placeholder per image")
			require.Equal(t, 2, strings.Count(prep.Engine.Prompt, "<|vision_start|><|image_pad|><|vision_end|>"))
			// The user's image comes before the tool result's.
			require.Less(t, strings.Index(prep.Engine.Prompt, "What is on this screen?"), strings.Index(prep.Engine.Prompt, "<|image_pad|>"))
			require.Equal(t, len(prep.Engine.PromptIDs)+2*499, prep.Response.PromptTokens, "per-image budget")
			wantMax := 262144 - prep.Response.PromptTokens // what the context leaves, images reserved
			if c.api == api.Messages {
				wantMax = 100
			}
			require.Equal(t, wantMax, prep.Engine.MaxTokens)

			next, err := prepareImages(t, p, c.api, fmt.Sprintf(c.turn, b64(user), b64(tool), c.next))
			require.NoError(t, err)
			require.True(t, slices.Equal(prep.Engine.PromptIDs[:at[1]+2], next.Engine.PromptIDs[:at[1]+2]), "the next turn keeps the ids")
			if d := cmp.Diff(want, next.Engine.Images); d != "" {
				t.Errorf("next turn's images (-want +got):\n%s", d)
			}
		})
	}
}

// TestImageRefusals: limits, undecodable images and deployments that
// cannot see images answer the API's own 400.
func TestImageRefusals(t *testing.T) {
	vision := visionModel(t)
	img := testPNG(t, 8, 8, 3)
	b64 := base64.StdEncoding.EncodeToString(img)
	cases := []struct {
		name  string
		model *Model
		opts  Options
		user  string // the user image's base64
		msg   string
	}{
		{"too large", vision, Options{MaxImageBytes: len(img) - 1}, b64, "image exceeds"},
		{"too many", vision, Options{MaxImages: 1}, b64, "too many images: more than 1"},
		{"not an image", vision, Options{}, base64.StdEncoding.EncodeToString([]byte("hello, not an image")), "not a PNG, JPEG, GIF or WebP image"},
		{"not base64", vision, Options{}, "%%%%", "not valid base64"},
		{"text-only model", tinyModel(t, ModelOptions{}), Options{}, b64, "this deployment does not accept images"},
	}
	for _, c := range imageConversations {
		for _, tc := range cases {
			t.Run(c.api.String()+"/"+tc.name, func(t *testing.T) {
				p := New(tc.model, tc.opts)
				_, err := prepareImages(t, p, c.api, fmt.Sprintf(c.turn, tc.user, b64, ""))
				require.Error(t, err)
				status, body := c.api.ErrorBody(err)
				require.Equal(t, 400, status, string(body))
				require.Contains(t, string(body), tc.msg)
				var shape map[string]any
				require.NoError(t, json.Unmarshal(body, &shape))
				if c.api == api.Messages {
					require.Equal(t, "error", shape["type"], string(body))
					require.Equal(t, "invalid_request_error", shape["error"].(map[string]any)["type"], string(body))
				} else {
					require.Equal(t, "invalid_request_error", shape["error"].(map[string]any)["type"], string(body))
				}
			})
		}
	}
}

// TestImagePlaceholders: for each vision template of testdata, a user
// image and a tool-result image each get the template's own placeholder,
// in order; templates that drop images in tool messages (Gemma 4,
// Mistral 3, Kimi K2) get the tool result's image in a user message
// right after the tool results.
func TestImagePlaceholders(t *testing.T) {
	img := testPNG(t, 16, 16, 4)
	b64 := base64.StdEncoding.EncodeToString(img)
	cases := []struct {
		file, placeholder string
		lifted, refused   bool
	}{
		{"Qwen3-VL-30B-A3B-Instruct-Q8_0", "<|vision_start|><|image_pad|><|vision_end|>", false, false},
		{"Qwen3.5-35B-A3B-Q8_0", "<|vision_start|><|image_pad|><|vision_end|>", false, false},
		{"Qwen3.6-35B-A3B-UD-Q4_K_M", "<|vision_start|><|image_pad|><|vision_end|>", false, false},
		{"gemma-4-26B-A4B-it-UD-Q8_K_XL", "<|image|>", true, false},
		{"gemma3", "<start_of_image>", true, true}, // no tool role at all
		{"Kimi-K3", "<|kimi_image_placeholder|>", false, false},
		{"kimi_k2", "<|media_start|>image<|media_content|><|media_pad|><|media_end|>", true, false},
		{"Ministral-3-14B-Instruct-2512-Q4_0", "[IMG]", true, true}, // no user turn may follow tool results
		{"Mistral-Medium-3.5-128B-GGUF", "[IMG]", true, false},
		{"LFM2.5-VL-1.6B-Q8_0", "<image>", false, false},
		{"DeepSeek-V4.1-Flash", "<｜deepseek_image｜>", false, false},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			src, err := os.ReadFile("../testdata/chattemplate/templates/" + tc.file + ".jinja")
			require.NoError(t, err)
			m := tinyModel(t, ModelOptions{ChatTemplate: string(src)})
			m.Vision = true // the tiny model's config.json has no vision_config
			tmpl := m.Template(true)
			require.Equal(t, tc.placeholder, tmpl.ImagePlaceholder)
			require.Equal(t, !tc.lifted, tmpl.ToolImages)
			p := New(m, Options{ImageTokens: 1})
			c := imageConversations[1] // Anthropic: a user image, a tool_result image
			prep, err := prepareImages(t, p, c.api, fmt.Sprintf(c.turn, b64, b64, c.next))
			if tc.refused {
				require.ErrorIs(t, err, engine.ErrNoImages)
				require.ErrorContains(t, err, "images in tool results")
				return
			}
			require.NoError(t, err)
			require.Len(t, prep.Engine.Images, 2)
			prompt := prep.Engine.Prompt
			require.Equal(t, 2, strings.Count(prompt, tc.placeholder), prompt)
			first, second := strings.Index(prompt, tc.placeholder), strings.LastIndex(prompt, tc.placeholder)
			require.Less(t, strings.Index(prompt, "What is on this screen?"), second)
			require.Less(t, first, strings.Index(prompt, "A button."), "the tool result's image precedes the next turn")
		})
	}
}

// TestPlaceholderMismatch: a prompt whose placeholders do not pair with
// the images (here a user typing the placeholder) is refused, never sent.
func TestPlaceholderMismatch(t *testing.T) {
	m := visionModel(t)
	img := base64.StdEncoding.EncodeToString(testPNG(t, 4, 4, 5))
	_, err := prepareImages(t, New(m, Options{}), api.Chat, `{"model":"m","messages":[{"role":"user","content":[
		{"type":"text","text":"<|vision_start|><|image_pad|><|vision_end|>"},{"type":"image_url","image_url":{"url":"data:image/png;base64,`+img+`"}}]}]}`)
	require.ErrorContains(t, err, "wrote 2 image placeholders for 1 images")
}

// TestDecodeImage: formats, media types, URLs and bounds of one image.
func TestDecodeImage(t *testing.T) {
	src := image.NewNRGBA(image.Rect(0, 0, 7, 5))
	var jpg, gf bytes.Buffer
	require.NoError(t, jpeg.Encode(&jpg, src, nil))
	require.NoError(t, gif.Encode(&gf, src, nil))
	pngb := testPNG(t, 7, 5, 0)
	lossy, lossless, alpha := readWebP(t, "lossy.webp"), readWebP(t, "lossless.webp"), readWebP(t, "alpha.webp")
	enc := base64.StdEncoding.EncodeToString
	cases := []struct {
		name, url string
		max       int
		want      engine.Image
		err       string
	}{
		{"png", "data:image/png;base64," + enc(pngb), 0, engine.Image{MediaType: "image/png", Hash: hashOf(pngb), Bytes: len(pngb), Width: 7, Height: 5}, ""},
		{"jpeg", "data:image/jpeg;base64," + enc(jpg.Bytes()), 0, engine.Image{MediaType: "image/jpeg", Hash: hashOf(jpg.Bytes()), Bytes: jpg.Len(), Width: 7, Height: 5}, ""},
		{"gif without media type", "data:;base64," + enc(gf.Bytes()), 0, engine.Image{MediaType: "image/gif", Hash: hashOf(gf.Bytes()), Bytes: gf.Len(), Width: 7, Height: 5}, ""},
		{"remote", "https://example.com/a.png", 0, engine.Image{Hash: hashOf([]byte("https://example.com/a.png"))}, ""},
		{"exactly the limit", "data:image/png;base64," + enc(pngb), len(pngb), engine.Image{MediaType: "image/png", Hash: hashOf(pngb), Bytes: len(pngb), Width: 7, Height: 5}, ""},
		{"one byte over", "data:image/png;base64," + enc(pngb), len(pngb) - 1, engine.Image{}, "image exceeds"},
		{"far over (refused before decoding)", "data:image/png;base64," + strings.Repeat("A", 4000), 100, engine.Image{}, "about 3000 bytes > 100 bytes"},
		{"mislabelled", "data:image/jpeg;base64," + enc(pngb), 0, engine.Image{}, `media type "image/jpeg" does not match its data (image/png)`},
		{"not base64 data", "data:image/png," + enc(pngb), 0, engine.Image{}, "data:<media type>;base64,<data>"},
		{"truncated base64", "data:image/png;base64," + enc(pngb)[:9], 0, engine.Image{}, "not valid base64"},
		{"file URL", "file:///etc/passwd", 0, engine.Image{}, "data: URL or an http(s) URL"},
		{"webp lossy (VP8)", "data:image/webp;base64," + enc(lossy), 0, engine.Image{MediaType: "image/webp", Hash: hashOf(lossy), Bytes: len(lossy), Width: 37, Height: 21}, ""},
		{"webp lossless (VP8L)", "data:image/webp;base64," + enc(lossless), 0, engine.Image{MediaType: "image/webp", Hash: hashOf(lossless), Bytes: len(lossless), Width: 37, Height: 21}, ""},
		{"webp extended (VP8X)", "data:;base64," + enc(alpha), 0, engine.Image{MediaType: "image/webp", Hash: hashOf(alpha), Bytes: len(alpha), Width: 300, Height: 2}, ""},
		{"webp labelled png", "data:image/png;base64," + enc(lossy), 0, engine.Image{}, `media type "image/png" does not match its data (image/webp)`},
		{"webp with a broken frame header", "data:image/webp;base64," + enc(append(lossy[:23:23], 0, 0, 0)), 0, engine.Image{}, "not a PNG, JPEG, GIF or WebP image"},
		{"webp canvas claimed past the side limit", "data:image/webp;base64," + enc(vp8x(16000, 1)), 0, engine.Image{}, "image dimensions exceed max allowed size: 8000 pixels (16000×1)"},
		{"a gigapixel claimed in a few bytes", "data:image/gif;base64," + enc([]byte("GIF89a\x40\x9c\x01\x00\x00\x00\x00;")), 0, engine.Image{}, "image dimensions exceed max allowed size: 8000 pixels (40000×1)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			max := tc.max
			if max == 0 {
				max = DefaultMaxImageBytes
			}
			got, err := decodeImage(tc.url, max)
			if tc.err != "" {
				require.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			tc.want.URL = tc.url
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

// FuzzDecodeImage: any data URL is an image or an error, never a panic,
// and an accepted image respects the size bound and hashes its bytes.
func FuzzDecodeImage(f *testing.F) {
	f.Add(testPNG(f, 3, 2, 1), "image/png")
	f.Add([]byte("GIF89a\x01\x00\x01\x00"), "image/gif")
	f.Add([]byte("RIFF\x00\x00\x00\x00WEBPVP8 "), "image/webp")
	for _, name := range []string{"lossy.webp", "lossless.webp", "alpha.webp"} {
		f.Add(readWebP(f, name), "image/webp")
	}
	f.Add(vp8x(1, 1), "")
	f.Add([]byte{0xff, 0xd8, 0xff}, "")
	f.Fuzz(func(t *testing.T, data []byte, media string) {
		u := "data:" + media + ";base64," + base64.StdEncoding.EncodeToString(data)
		img, err := decodeImage(u, 1<<16)
		if err != nil {
			return
		}
		require.Len(t, data, img.Bytes, "accepted %+v for %d bytes", img, len(data))
		require.Equal(t, hashOf(data), img.Hash, "accepted %+v for %d bytes", img, len(data))
		require.LessOrEqual(t, img.Bytes, 1<<16, "accepted %+v for %d bytes", img, len(data))
		require.NotEqual(t, "", img.MediaType, "accepted %+v for %d bytes", img, len(data))
		require.LessOrEqual(t, img.Width, maxImageSide, "accepted %+v for %d bytes", img, len(data))
		require.LessOrEqual(t, img.Height, maxImageSide, "accepted %+v for %d bytes", img, len(data))
	})
}

// TestImagesViaChat: with Options.ImagesViaChat a request with images
// carries the chat request (image parts with their hashes as uuid) and
// no parsers; a text-only request is unchanged.
func TestImagesViaChat(t *testing.T) {
	m := visionModel(t)
	p := New(m, Options{ImagesViaChat: true})
	user, tool := testPNG(t, 8, 8, 6), testPNG(t, 9, 9, 7)
	b64 := base64.StdEncoding.EncodeToString
	c := imageConversations[0] // Chat
	prep, err := prepareImages(t, p, c.api, fmt.Sprintf(c.turn, b64(user), b64(tool), ""))
	require.NoError(t, err)
	require.Len(t, prep.Engine.Images, 2)
	require.Empty(t, prep.Parsers.ToolParser)
	require.Empty(t, prep.Parsers.ReasoningParser)
	var chat struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		Tools []json.RawMessage `json:"tools"`
	}
	require.NoError(t, json.Unmarshal(prep.Engine.Chat, &chat))
	require.Len(t, chat.Messages, 3)
	require.Len(t, chat.Tools, 1)
	require.Contains(t, string(chat.Messages[0].Content), `"uuid":"`+hashOf(user)+`"`)
	require.Contains(t, string(chat.Messages[2].Content), `"uuid":"`+hashOf(tool)+`"`)

	prep, err = prepareImages(t, p, api.Chat, `{"model":"m","messages":[{"role":"user","content":"hi"}]}`)
	require.NoError(t, err)
	require.Nil(t, prep.Engine.Chat)
	require.Equal(t, "qwen3", prep.Parsers.ReasoningParser)
}

// BenchmarkDecodeImage: checking a 1200×800 screenshot's data URL (the
// size Claude Code sends): base64 decoding, the header, SHA-256.
func BenchmarkDecodeImage(b *testing.B) {
	src := image.NewNRGBA(image.Rect(0, 0, 1200, 800))
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range src.Pix {
		src.Pix[i] = uint8(rng.Uint32()) // noise: a worst case, about 3.8 MB
	}
	var buf bytes.Buffer
	require.NoError(b, png.Encode(&buf, src))
	img := buf.Bytes()
	u := dataURL(img)
	b.SetBytes(int64(len(img)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decodeImage(u, DefaultMaxImageBytes); err != nil { // not require in the measured loop
			b.Fatal(err)
		}
	}
}

// TestHarnessImages prepares the requests Claude Code and Codex sent with
// an image (testdata/harness, recorded by examples/server/e2e.sh): the
// image reaches the engine request, once, with its one placeholder.
func TestHarnessImages(t *testing.T) {
	m := visionModel(t)
	for _, tc := range []struct {
		file string
		api  api.API
	}{
		{"claude-code_C-read-image_0096-POST-v1_messages.body.json", api.Messages},
		{"codex_C-view-image_0104-POST-v1_responses.body.json", api.Responses},
		{"codex_D-attach-image_0106-POST-v1_responses.body.json", api.Responses},
	} {
		t.Run(tc.file, func(t *testing.T) {
			body, err := os.ReadFile(harnessDir + tc.file)
			require.NoError(t, err)
			prep, err := prepareImages(t, New(m, Options{}), tc.api, string(body))
			require.NoError(t, err)
			require.Len(t, prep.Engine.Images, 1)
			img := prep.Engine.Images[0]
			require.Equal(t, "image/png", img.MediaType)
			require.Equal(t, [3]int{24, 16, 96}, [3]int{img.Width, img.Height, img.Bytes})
			require.Equal(t, 1, strings.Count(prep.Engine.Prompt, "<|vision_start|><|image_pad|><|vision_end|>"))
		})
	}
}

// TestCountTokensImages: count_tokens counts each image's budget.
func TestCountTokensImages(t *testing.T) {
	m := visionModel(t)
	p := New(m, Options{ImageTokens: 300})
	img := base64.StdEncoding.EncodeToString(testPNG(t, 4, 4, 8))
	var req anthropic.CountTokensRequest
	require.NoError(t, json.Unmarshal([]byte(`{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"hi"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"`+img+`"}}]}]}`), &req))
	with, err := p.CountTokens(context.Background(), &req)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal([]byte(`{"model":"m","messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}]}`), &req))
	without, err := p.CountTokens(context.Background(), &req)
	require.NoError(t, err)
	require.Equal(t, without+3+299, with, "the placeholder's 3 tokens, and the budget beyond one")
}

// readWebP reads a WebP file of testdata/webp (made with cwebp; see its
// README).
func readWebP(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "webp", name))
	require.NoError(t, err)
	return b
}

// vp8x is the header of an extended WebP file whose canvas is w×h (the
// bytes after the header are not read for the dimensions).
func vp8x(w, h int) []byte {
	b := []byte("RIFF\x16\x00\x00\x00WEBPVP8X\x0a\x00\x00\x00\x10\x00\x00\x00")
	return append(b, byte(w-1), byte((w-1)>>8), byte((w-1)>>16), byte(h-1), byte((h-1)>>8), byte((h-1)>>16))
}
