package preprocess

import (
	"encoding/binary"
	"errors"
	"image"
)

// webpHeaderLen is how many bytes of a WebP file webpConfig reads: the RIFF
// header (12 bytes), the first chunk's header (8) and the part of its
// payload that holds the dimensions (at most 10).
const webpHeaderLen = 30

// isWebP reports whether b starts a WebP file ("RIFF", a size, "WEBP").
func isWebP(b []byte) bool {
	return len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP"
}

var errWebP = errors.New("webp: malformed header")

// webpConfig reads the dimensions of a WebP image from its first bytes
// (isWebP holds), without decoding it. The first chunk says the format:
//
//	"VP8 " lossy: a 3-byte frame tag (bit 0 clear: a key frame), the start
//	       code 9d 01 2a, then width and height as 16-bit little-endian
//	       values whose low 14 bits are the size (the top 2 a scale).
//	"VP8L" lossless: the signature byte 0x2f, then a 32-bit little-endian
//	       word holding width−1 (bits 0–13) and height−1 (bits 14–27).
//	"VP8X" extended (alpha, animation, metadata): 4 bytes of flags, then
//	       the canvas width−1 and height−1 as 24-bit little-endian values.
//
// The standard library has no WebP reader; these three headers are all
// image.DecodeConfig would need from one.
func webpConfig(b []byte) (image.Config, error) {
	cfg := image.Config{}
	if len(b) < 20 {
		return cfg, errWebP
	}
	chunk, p := string(b[12:16]), b[20:]
	switch chunk {
	case "VP8 ":
		if len(p) < 10 || p[0]&1 != 0 || p[3] != 0x9d || p[4] != 0x01 || p[5] != 0x2a {
			return cfg, errWebP
		}
		cfg.Width = int(binary.LittleEndian.Uint16(p[6:]) & 0x3fff)
		cfg.Height = int(binary.LittleEndian.Uint16(p[8:]) & 0x3fff)
	case "VP8L":
		if len(p) < 5 || p[0] != 0x2f {
			return cfg, errWebP
		}
		v := binary.LittleEndian.Uint32(p[1:])
		cfg.Width, cfg.Height = int(v&0x3fff)+1, int(v>>14&0x3fff)+1
	case "VP8X":
		if len(p) < 10 {
			return cfg, errWebP
		}
		cfg.Width = int(uint32(p[4])|uint32(p[5])<<8|uint32(p[6])<<16) + 1
		cfg.Height = int(uint32(p[7])|uint32(p[8])<<8|uint32(p[9])<<16) + 1
	default:
		return cfg, errWebP
	}
	if cfg.Width == 0 || cfg.Height == 0 {
		return cfg, errWebP
	}
	return cfg, nil
}
