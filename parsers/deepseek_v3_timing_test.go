package parsers

import (
	"strconv"
	"testing"
)

// BenchmarkDeepSeekV3 feeds DeepSeek V3 and V3.1 outputs with two calls of
// 4 KB and 32 KB arguments in 4-byte chunks (BenchmarkFeed's method).
func BenchmarkDeepSeekV3(b *testing.B) {
	for _, v3 := range []bool{true, false} {
		name := map[bool]string{true: "deepseek_v3", false: "deepseek_v3_1"}[v3]
		for _, kb := range []int{4, 32} {
			benchChunks(b, name+"-"+strconv.Itoa(kb)+"KB", Config{ToolParser: name, ReasoningParser: "deepseek_v3"}, deepseekOutput(v3, kb<<10))
		}
	}
}

// benchChunks runs one BenchmarkFeed-style sub-benchmark: the output in
// 4-byte chunks through one reused Parser, reporting ns per chunk.
func benchChunks(b *testing.B, name string, cfg Config, output string) {
	b.Run(name, func(b *testing.B) {
		p, err := New(cfg)
		if err != nil {
			b.Fatal(err)
		}
		chunks := chunksOf(output, 4)
		b.SetBytes(int64(len(output)))
		b.ReportAllocs()
		for b.Loop() {
			p.Reset()
			for _, c := range chunks {
				p.Feed(c)
			}
			p.Finish()
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(chunks)), "ns/chunk")
	})
}
