package engine

import (
	"context"
	"errors"
	"time"

	"github.com/cenkalti/backoff/v5"
)

var errInUse = errors.New("volume is in use")

// Only a volume still in use is worth another try: every other error ends
// the retry at once, because the operation returns success for it. The
// retry predicate is written inside the operation.
func (e *engine) dropVolume(ctx context.Context, name string) error {
	_, err := backoff.Retry(ctx, func() (any, error) {
		err := e.client.RemoveVolume(ctx, name)
		if err == nil || !errors.Is(err, errInUse) {
			return nil, nil
		}
		return nil, err
	}, backoff.WithMaxTries(5), backoff.WithBackOff(backoff.NewExponentialBackOff()))
	return err
}

// The same, the error compared with the one worth retrying.
func (e *engine) dropNetwork(ctx context.Context, name string) error {
	_, err := backoff.Retry(ctx, func() (any, error) {
		err := e.client.RemoveNetwork(ctx, name)
		if err != errInUse {
			return nil, nil
		}
		return nil, err
	}, backoff.WithMaxTries(5), backoff.WithMaxElapsedTime(time.Minute))
	return err
}
