package preprocess

import (
	"bufio"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	_ "image/gif"  // image.DecodeConfig reads GIF headers
	_ "image/jpeg" // and JPEG
	_ "image/png"  // and PNG
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/agentwire/agentwire/preprocess/engine"
	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/openai"
)

// The image limits' defaults are the Anthropic Messages API's, the
// strictest of the three harness APIs: 5 MB per image (decoded) and 100
// images per request. (OpenAI's APIs take up to 500 images and 50 MB per
// request.) Claude Code downscales what its Read tool returns to fit them,
// and Codex's view_image fits screenshots to 2048×768.
const (
	DefaultMaxImageBytes = 5 << 20
	DefaultMaxImages     = 100
)

// maxImageSide is the longest side an image may have, in pixels (the
// Anthropic API's limit): a few kilobytes of PNG can claim a gigapixel,
// which the engine's processor would decode.
const maxImageSide = 8000

// defaultImageTokens is the per-image token budget of a family not in
// familyImageTokens.
const defaultImageTokens = 1024

// familyImageTokens is the token budget reserved for one image of a
// family's vision models: the prompt holds one placeholder per image and
// the engine's processor expands it to this order of tokens for the
// screenshots agents send (about 1200×800 pixels). Qwen-VL, Kimi and
// GLM-V (one token per 28–32 pixel square): about 1000 for such a
// screenshot; Gemma 4: 280 by default; Mistral 3 / Pixtral (one token
// per 28 pixel square plus row breaks): about 1300; Llama 4 (144 tokens
// per 336 pixel tile, plus the global tile); LFM2-VL: 256 per 512 pixel
// tile. An estimate: the engine's usage reports the real count.
var familyImageTokens = map[string]int{
	"Qwen3": 1280, "Qwen3.5": 1280, "Holo2": 1280, "Kimi K2.5": 1280, "Kimi K3": 1280, "GLM-4.5": 1280,
	"Gemma 4": 280,
	"Mistral": 1600, "Llama 4": 1200, "LFM2": 768, "LFM2 Thinking": 768,
}

// imageTokens returns the per-image token budget of m's family
// (defaultImageTokens for a family without one).
func imageTokens(m *Model) int {
	if n, ok := familyImageTokens[m.Family]; ok {
		return n
	}
	return defaultImageTokens
}

// errNoImages is the refusal of an image by a deployment that cannot see
// it (a text-only model, a template that writes no placeholder): the
// engine adapters' refusal, engine.ErrNoImages, so that one errors.Is
// finds both.
var errNoImages = engine.ErrNoImages

// images collects the images of msgs in prompt order (the image_url parts
// of user and tool messages), checked against the limits: a data: URL is
// decoded (base64), bounded by MaxImageBytes before decoding, its
// dimensions read from the header only (image.DecodeConfig for PNG, JPEG
// and GIF; webpConfig for WebP) and its bytes hashed; an http(s) URL is passed on for the
// engine to fetch, hashed by its text. Errors are the client's.
func (p *Preprocessor) images(msgs []openai.Message) ([]engine.Image, error) {
	return Images(msgs, p.opts.MaxImages, p.opts.MaxImageBytes)
}

// Images collects and checks the images of msgs as a Preprocessor does
// (see Options.MaxImages, MaxImageBytes; 0 means the default), for
// backends that render prompts themselves (the embedded engine). Its
// errors are the client's (a 400).
func Images(msgs []openai.Message, maxImages, maxImageBytes int) ([]engine.Image, error) {
	if maxImages <= 0 {
		maxImages = DefaultMaxImages
	}
	if maxImageBytes <= 0 {
		maxImageBytes = DefaultMaxImageBytes
	}
	var out []engine.Image
	for mi := range msgs {
		c, ok := msgs[mi].Content.Get()
		if !ok || !c.IsArray() {
			continue
		}
		for pi := range c.Array {
			part := &c.Array[pi]
			if part.Type != openai.PartImageURL || part.ImageURL == nil {
				continue
			}
			if len(out) == maxImages {
				return nil, fmt.Errorf("too many images: more than %d in the request", maxImages)
			}
			img, err := decodeImage(part.ImageURL.URL, maxImageBytes)
			if err != nil {
				return nil, fmt.Errorf("messages.%d.content.%d: %w", mi, pi, err)
			}
			out = append(out, img)
		}
	}
	return out, nil
}

// imageTypes are the media types the harness APIs accept, by the format
// name image.DecodeConfig reports.
var imageTypes = map[string]string{"png": "image/png", "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp"}

// decodeImage checks one image URL (see images).
func decodeImage(u string, max int) (engine.Image, error) {
	img := engine.Image{URL: u}
	rest, ok := strings.CutPrefix(u, "data:")
	if !ok {
		if !strings.HasPrefix(u, "https://") && !strings.HasPrefix(u, "http://") {
			return img, errors.New("image URL must be a data: URL or an http(s) URL")
		}
		h := sha256.Sum256([]byte(u))
		img.Hash = hex.EncodeToString(h[:])
		return img, nil
	}
	meta, data, ok := strings.Cut(rest, ",")
	media, isBase64 := strings.CutSuffix(meta, ";base64")
	if !ok || !isBase64 {
		return img, errors.New("image data URL must be data:<media type>;base64,<data>")
	}
	if n := base64.StdEncoding.DecodedLen(len(data)); n > max+2 { // padding rounds up by at most 2
		return img, fmt.Errorf("image exceeds %s maximum: about %d bytes > %d bytes", mbString(max), n, max)
	}
	// The bytes are streamed, never held: the header to
	// image.DecodeConfig and everything to the hash.
	h := sha256.New()
	n := &countingWriter{w: h}
	r := bufio.NewReader(io.TeeReader(base64.NewDecoder(base64.StdEncoding, strings.NewReader(data)), n))
	var (
		cfg    image.Config
		format string
		cfgErr error
	)
	if head, _ := r.Peek(webpHeaderLen); isWebP(head) {
		cfg, cfgErr = webpConfig(head)
		format = "webp"
	} else {
		cfg, format, cfgErr = image.DecodeConfig(r)
	}
	if _, err := io.Copy(io.Discard, r); err != nil {
		return img, errors.New("image data is not valid base64")
	}
	if n.n > int64(max) {
		return img, fmt.Errorf("image exceeds %s maximum: %d bytes > %d bytes", mbString(max), n.n, max)
	}
	if cfgErr != nil {
		return img, fmt.Errorf("image data is not a PNG, JPEG, GIF or WebP image (media type %q)", media)
	}
	if want := imageTypes[format]; media != "" && media != want {
		return img, fmt.Errorf("image media type %q does not match its data (%s)", media, want)
	}
	if cfg.Width > maxImageSide || cfg.Height > maxImageSide {
		return img, fmt.Errorf("image dimensions exceed max allowed size: %d pixels (%d×%d)", maxImageSide, cfg.Width, cfg.Height)
	}
	img.MediaType, img.Hash, img.Bytes = imageTypes[format], hex.EncodeToString(h.Sum(nil)), int(n.n)
	img.Width, img.Height = cfg.Width, cfg.Height
	return img, nil
}

func mbString(n int) string {
	if n%(1<<20) == 0 {
		return strconv.Itoa(n>>20) + " MB"
	}
	return strconv.Itoa(n) + " bytes"
}

// hasImages reports whether a message of msgs has an image part.
func hasImages(msgs []openai.Message) bool {
	for i := range msgs {
		if c, ok := msgs[i].Content.Get(); ok && c.IsArray() {
			for j := range c.Array {
				if c.Array[j].Type == openai.PartImageURL {
					return true
				}
			}
		}
	}
	return false
}

// liftToolImages rewrites msgs for a template that writes no placeholder
// for an image in a tool message (Template.ToolImages false: Gemma 4,
// Mistral 3, Kimi K2): the image parts of each run of consecutive tool
// messages move, in order, to a user message right after the run (the
// tool messages keep their text), so the model still sees them and each
// has its placeholder. msgs is not modified; it is returned as is when
// no tool message has an image.
func liftToolImages(msgs []openai.Message) []openai.Message {
	var out []openai.Message
	var lifted []openai.ContentPart
	flush := func() {
		if len(lifted) > 0 {
			out = append(out, openai.Message{Role: openai.RoleUser, Content: protocols.Some(protocols.Array(lifted...))})
			lifted = nil
		}
	}
	changed := false
	for i := range msgs {
		m := msgs[i]
		if m.Role != openai.RoleTool {
			flush()
			out = append(out, m)
			continue
		}
		c, ok := m.Content.Get()
		if ok && c.IsArray() && slices.ContainsFunc(c.Array, func(p openai.ContentPart) bool { return p.Type == openai.PartImageURL }) {
			changed = true
			var text []openai.ContentPart
			for _, p := range c.Array {
				if p.Type == openai.PartImageURL {
					lifted = append(lifted, p)
				} else {
					text = append(text, p)
				}
			}
			m.Content = openai.TextContent(openai.ContentText(protocols.Array(text...), ""))
		}
		out = append(out, m)
	}
	flush()
	if !changed {
		return msgs
	}
	return out
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return c.w.Write(p)
}
