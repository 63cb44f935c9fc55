package pipeline

import (
	"fmt"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/agentwire/agentwire/preprocess/api"
	"github.com/agentwire/agentwire/preprocess/engine"
)

// TestConcurrentStreams runs many streams at once through Serve: they share
// the tokenizer, the parser pools and the pooled Pipelines. Run with -race.
func TestConcurrentStreams(t *testing.T) {
	caps := loadCaptures(t)
	v := captureTokenizer(t)
	outs := map[string][]engine.Output{}
	for _, c := range caps {
		outs[c.name] = v.idOutputs(t, c.deltas, engineFinish(c.finish))
	}
	const workers = 16
	var wg sync.WaitGroup
	errs := make(chan string, workers)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for k := 0; k < 6; k++ {
				c := caps[(w*7+k)%len(caps)]
				a := allAPIs[(w+k)%len(allAPIs)]
				if a == api.Completions {
					a = api.Chat
				}
				prep := prepFor(a, (w+k)%2 == 0, c.toolParser, c.reasoningParser)
				prep.Response.Tokenizer = v.tok
				prep.Engine.Stop.HiddenIDs = []uint32{v.eos}
				got, err := answerErr(newFake(outs[c.name]), prep)
				if err != nil {
					errs <- err.Error()
					return
				}
				if d := cmp.Diff(framed(c), got, cmpResult); d != "" {
					errs <- fmt.Sprintf("%s %s: %s", c.name, a, d)
					return
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	var failures []string // every worker's failure, reported at once
	for e := range errs {
		failures = append(failures, e)
	}
	require.Empty(t, failures)
}
