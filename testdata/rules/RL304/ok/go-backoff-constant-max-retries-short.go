package resolve

import (
	"context"
	"errors"
	"time"

	"github.com/cenkalti/backoff/v4"
)

type Resolver interface {
	Resolve(ctx context.Context, id string) (string, error)
}

// Six tries 100 ms apart: the count bounds them, and their waits add up
// to half a second; a constant backoff never stops of itself, but under
// `WithMaxRetries` that is no missing deadline.
func address(ctx context.Context, r Resolver, id string) (string, error) {
	var addr string
	err := backoff.Retry(func() error {
		a, err := r.Resolve(ctx, id)
		if err != nil {
			return backoff.Permanent(err)
		}
		if a == "" {
			return errors.New("no address yet")
		}
		addr = a
		return nil
	}, backoff.WithMaxRetries(
		backoff.WithContext(backoff.NewConstantBackOff(100*time.Millisecond), ctx),
		5),
	)
	return addr, err
}
