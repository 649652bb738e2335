package notes

import (
	"context"

	"github.com/cenkalti/backoff/v5"
)

// The operation is a variable that never marks an error permanent: a
// rejected push is retried like a timeout.
func (c *Client) publish(ctx context.Context, note string) error {
	operation := func() (struct{}, error) {
		return struct{}{}, c.remote.Push(ctx, note)
	}
	_, err := backoff.Retry(ctx, operation, backoff.WithMaxTries(4))
	return err
}
