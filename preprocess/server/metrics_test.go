package server

import (
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/agentwire/agentwire/preprocess/api"
	"github.com/stretchr/testify/require"
)

// The generation routes the tests observe: route i is api.All()[i].
var (
	routeChat      = slices.Index(api.All(), api.Chat)
	routeMessages  = slices.Index(api.All(), api.Messages)
	routeResponses = slices.Index(api.All(), api.Responses)
)

func TestObserveAllocs(t *testing.T) {
	m := NewMetrics()
	n := testing.AllocsPerRun(1000, func() {
		m.ttft[routeChat].observe(0.012)
		m.itl[routeMessages].observe(0.0003)
		m.done(routeResponses, 529, false)
		m.genTokens[routeChat].Add(3)
	})
	require.Equal(t, float64(0), n, "%v allocations per observation", n)
}

func TestHistogramText(t *testing.T) {
	m := NewMetrics()
	m.ttft[routeChat].observe(0.0007) // le 0.001
	m.ttft[routeChat].observe(1000)   // +Inf
	m.done(routeChat, 200, false)
	m.done(routeChat, 418, false) // counted as 4xx
	var b strings.Builder
	_, err := m.WriteTo(&b)
	require.NoError(t, err)
	for _, want := range []string{
		`agentwire_time_to_first_token_seconds_bucket{api="chat",le="0.0005"} 0`,
		`agentwire_time_to_first_token_seconds_bucket{api="chat",le="0.001"} 1`,
		`agentwire_time_to_first_token_seconds_bucket{api="chat",le="640"} 1`,
		`agentwire_time_to_first_token_seconds_bucket{api="chat",le="+Inf"} 2`,
		`agentwire_time_to_first_token_seconds_sum{api="chat"} 1000.0007`,
		`agentwire_time_to_first_token_seconds_count{api="chat"} 2`,
		`agentwire_requests_total{route="chat",code="200"} 1`,
		`agentwire_requests_total{route="chat",code="4xx"} 1`,
		`agentwire_request_errors_total{route="chat"} 1`,
	} {
		require.Contains(t, b.String(), want+"\n", "missing %q", want)
	}
}

func BenchmarkObserve(b *testing.B) {
	m := NewMetrics()
	b.ReportAllocs()
	for b.Loop() {
		m.itl[routeChat].observe(0.004)
	}
}

type fixedSeries string

func (s fixedSeries) WriteTo(w io.Writer) (int64, error) {
	n, err := io.WriteString(w, string(s))
	return int64(n), err
}

// TestMetricsAdd: added series follow the server's on every scrape.
func TestMetricsAdd(t *testing.T) {
	m := NewMetrics()
	m.Add(fixedSeries("# TYPE x_total counter\nx_total 1\n"))
	m.Add(fixedSeries("y 2\n"))
	var b strings.Builder
	_, err := m.WriteTo(&b)
	require.NoError(t, err)
	if !strings.HasSuffix(b.String(), "agentwire_request_duration_seconds_count{api=\"responses\"} 0\n# TYPE x_total counter\nx_total 1\ny 2\n") {
		t.Errorf("added series not at the end:\n%s", b.String()[max(0, b.Len()-300):])
	}
}
