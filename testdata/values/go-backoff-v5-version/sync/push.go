package sync

import (
	"context"

	"github.com/cenkalti/backoff/v5"
)

// `Retry` without `WithMaxElapsedTime`: the limit is the default of the
// module version the go.mod requires.
func push(ctx context.Context, c *Client, batch []byte) error {
	_, err := backoff.Retry(ctx, func() (struct{}, error) {
		return struct{}{}, c.Send(ctx, batch)
	}, backoff.WithMaxTries(6))
	return err
}
