// Package hf is an optional backend of the tokenizers.Tokenizer interface on
// Hugging Face's own Rust library, through github.com/daulet/tokenizers
// (cgo). It is its own module, github.com/agentwire/agentwire/tokenizers/hf:
// importing it is the opt-in, and neither the tokenizers module nor the root
// module depends on it, so their builds need no C library and their module
// graphs do not name the Rust binding.
//
// A program that imports this package needs, at link time:
//
//   - cgo (CGO_ENABLED=1 and a C toolchain);
//   - libtokenizers.a built from github.com/daulet/tokenizers at the release
//     that matches the binding: github.com/daulet/tokenizers v1.24.0 (the
//     version this module requires) checks for the library's version 1.23.0
//     at link time, so a library of another version fails to link with an
//     undefined tokenizers_version_1_23_0;
//   - the linker pointed at the directory that holds it.
//
// Take a prebuilt libtokenizers.<os>-<arch>.tar.gz (darwin-arm64,
// linux-arm64, linux-amd64) from the daulet/tokenizers release page, or
// build it with a Rust toolchain:
//
//	git clone https://github.com/daulet/tokenizers && cd tokenizers && git checkout v1.24.0 && make build
//	CGO_LDFLAGS="-L/path/to/dir/with/libtokenizers.a" go build ./your/command
//
// Without the library a program builds but fails to link with
// "cannot find -ltokenizers". go vet and go build of this package alone (no
// binary) need only cgo and the header that comes with the binding. The
// package's test links the library, so it is behind the build tag
// hftokenizers: CGO_LDFLAGS="-L…" go test -tags hftokenizers
// github.com/agentwire/agentwire/tokenizers/hf.
//
// The backend encodes and decodes with the Rust library; token lookups,
// special-token ids and the byte-fallback check come from the same
// tokenizer.json read in Go. EncodeSegments with an untrusted segment
// returns an error wrapping tokenizers.ErrUnsupported, because the binding
// cannot switch off added-token matching.
package hf
