package openai

import (
	"math"
	"strconv"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/internal/jsonx"
)

// appendTokenLogprob writes `{"token":…,"logprob":…,"bytes":[…]` (the
// object left open).
func appendTokenLogprob(dst, token []byte, logprob float64) []byte {
	dst = append(dst, `{"token":`...)
	dst = jsonx.AppendString(dst, token)
	dst = append(dst, `,"logprob":`...)
	dst = appendLogprob(dst, logprob)
	dst = append(dst, `,"bytes":[`...)
	for i, c := range token {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonx.AppendInt(dst, int64(c))
	}
	return append(dst, ']')
}

// appendLogprob writes a log probability as a JSON number; -Inf (an
// impossible token) is written as -9999.0, the value vLLM reports, +Inf as
// 9999.0 and NaN as 0.
func appendLogprob(dst []byte, f float64) []byte {
	switch {
	case math.IsInf(f, -1):
		return append(dst, "-9999.0"...)
	case math.IsInf(f, 1):
		return append(dst, "9999.0"...)
	case math.IsNaN(f):
		return append(dst, '0')
	}
	return strconv.AppendFloat(dst, f, 'g', -1, 64)
}

// appendTokenLogprobs appends lps to out as the chat API's
// logprobs.content entries (the unary answer's form).
func appendTokenLogprobs(out []TokenLogprob, lps []protocols.Logprob) []TokenLogprob {
	for i := range lps {
		lp := &lps[i]
		t := TokenLogprob{Token: string(lp.Token), Logprob: lp.Logprob, Bytes: byteInts(lp.Token),
			TopLogprobs: make([]TopLogprob, len(lp.Top))}
		for k := range lp.Top {
			tp := &lp.Top[k]
			t.TopLogprobs[k] = TopLogprob{Token: string(tp.Token), Logprob: tp.Logprob, Bytes: byteInts(tp.Token)}
		}
		out = append(out, t)
	}
	return out
}

func byteInts(b []byte) []int {
	out := make([]int, len(b))
	for i, c := range b {
		out[i] = int(c)
	}
	return out
}
