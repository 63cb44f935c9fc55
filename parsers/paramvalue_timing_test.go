package parsers

import "testing"

// BenchmarkParamFeed feeds a call of each parameter grammar — a path, a typed
// mode and a string value of 4 KB or 32 KB — in 4-byte chunks through one
// Parser reused with Reset, and reports the cost per chunk (compare
// BenchmarkFeed's hermes rows: the same targets apply, 0 allocs/op and the
// 32 KB call within 10% of the 4 KB one per chunk).
func BenchmarkParamFeed(b *testing.B) {
	for _, fam := range paramFamilies {
		for _, size := range []struct {
			name string
			n    int
		}{{"4KB", 4 << 10}, {"32KB", 32 << 10}} {
			b.Run(fam+"-"+size.name, func(b *testing.B) {
				benchFeed(b, Config{ToolParser: fam, Tools: paramTools}, paramCall(fam, benchOutput("content", size.n)))
			})
		}
		b.Run(fam+"-code-32KB", func(b *testing.B) {
			benchFeed(b, Config{ToolParser: fam, Tools: paramTools}, paramCall(fam, paramContent(32<<10)))
		})
	}
}
