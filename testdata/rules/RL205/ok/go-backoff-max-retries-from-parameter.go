package store

import (
	"context"
	"time"

	"github.com/cenkalti/backoff/v4"
)

type Getter interface {
	Get(ctx context.Context, key string) error
}

// The count is the caller's (`max`), but `WithMaxRetries` bounds the
// retries whatever it is: a limit not known here, not no limit.
func getWithRetry(ctx context.Context, c Getter, key string, delay time.Duration, max uint64) error {
	bo := backoff.WithMaxRetries(backoff.NewConstantBackOff(delay), max)
	return backoff.Retry(func() error {
		return c.Get(ctx, key)
	}, bo)
}
