package frontend

import (
	"context"
	"time"

	"github.com/jpillora/backoff"
)

// A jpillora/backoff counter with `Jitter: true`: each wait is drawn in
// [Min, d], so callers spread out.
func (r retrier) Do(ctx context.Context, q Query) (Result, error) {
	b := &backoff.Backoff{
		Min:    150 * time.Millisecond,
		Max:    3 * time.Second,
		Factor: 2,
		Jitter: true,
	}
	var last error
	for tries := 0; tries < r.limit; tries++ {
		res, err := r.next.Run(ctx, q)
		if err == nil {
			return res, nil
		}
		last = err
		pause := b.Duration()
		select {
		case <-time.After(pause):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return nil, last
}
