package preprocess

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestConcurrentPrepare prepares the captured conversations from many
// goroutines on one Preprocessor (one prefix cache): every result equals
// the sequential one. Run with -race.
func TestConcurrentPrepare(t *testing.T) {
	m := tinyModel(t, ModelOptions{ContextLength: 1 << 20})
	cold := New(m, Options{PrefixCacheEntries: -1})
	want := map[string][]uint32{}
	for _, c := range conversations {
		for _, file := range c.turns {
			want[file] = prepareTurn(t, cold, c.api, file).Engine.PromptIDs
		}
	}
	p := New(m, Options{PrefixCacheEntries: 3})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 3 {
				c := conversations[(g+i)%len(conversations)]
				for _, file := range c.turns {
					got := prepareTurn(t, p, c.api, file).Engine.PromptIDs
					require.Equal(t, want[file], got, file)
				}
			}
		}()
	}
	wg.Wait()
}
