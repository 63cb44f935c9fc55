// Package hf is an optional backend of the tokenizers.Tokenizer interface on
// Hugging Face's own Rust library, through github.com/daulet/tokenizers
// (cgo). It is compiled only with the build tag hftokenizers; without the
// tag this package is empty, so default builds need no C library.
//
// To use it, build libtokenizers.a (version 1.23.0, which
// github.com/daulet/tokenizers v1.24.0 checks at link time) and point the
// linker at it:
//
//	git clone https://github.com/daulet/tokenizers && cd tokenizers && make build
//	CGO_LDFLAGS="-L/path/to/dir/with/libtokenizers.a" go build -tags hftokenizers ./...
//
// or take a prebuilt libtokenizers.<os>-<arch>.tar.gz from that project's
// release page. A build with the tag but without the library fails to link.
//
// The backend encodes and decodes with the Rust library; token lookups,
// special-token ids and the byte-fallback check come from the same
// tokenizer.json read in Go. EncodeSegments with an untrusted segment
// returns an error wrapping tokenizers.ErrUnsupported, because the binding
// cannot switch off added-token matching.
package hf
