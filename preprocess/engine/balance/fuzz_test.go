package balance

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// FuzzRank: for any session id, upstream count and ejected set, the
// ranking is a prefix of a permutation of the upstreams, healthy ones
// first, the same on every call.
func FuzzRank(f *testing.F) {
	f.Add("99bc91c6-7413-4039-84a7-fc0f5a6a5891", uint8(3), uint64(0), false)
	f.Add("", uint8(8), uint64(5), true)
	f.Add("turn-0123", uint8(64), uint64(1<<63|1), false)
	f.Fuzz(func(t *testing.T, session string, n uint8, ejected uint64, least bool) {
		count := int(n)%MaxUpstreams + 1
		now := time.Unix(1e9, 0)
		ups := make([]Upstream, count)
		for i := range ups {
			ups[i] = Upstream{Name: string(rune('a'+i%26)) + string(rune('0'+i/26)), Engine: &fake{}}
		}
		policy := Affinity
		if least {
			policy = LeastInFlight
		}
		b, err := New(Config{Upstreams: ups, Policy: policy, Attempts: count, Now: func() time.Time { return now }})
		require.NoError(t, err)
		for i, u := range b.ups {
			if ejected>>(i%64)&1 == 1 {
				u.ejectedUntil = now.Add(time.Second)
			}
		}
		var order, again [MaxUpstreams]uint8
		m := b.rank(session, &order)
		require.Equal(t, count, m, "ranked %d of %d", m, count)
		seen := map[uint8]bool{}
		sawEjected := false
		for _, i := range order[:m] {
			require.Less(t, int(i), count, "not a permutation: %v", order[:m])
			require.False(t, seen[i], "not a permutation: %v", order[:m])
			seen[i] = true
			h := b.ups[i].healthy(now)
			require.False(t, h && sawEjected, "a healthy upstream after an ejected one: %v", order[:m])
			sawEjected = sawEjected || !h
		}
		if !least && session != "" {
			b.rank(session, &again)
			require.False(t, again != order, "affinity ranking changed: %v then %v", order[:m], again[:m])
		}
	})
}
