package notes

import (
	"context"
	"errors"
	"fmt"

	"github.com/cenkalti/backoff/v5"
)

var errRejected = errors.New("rejected")

// The operation is a variable; the errors it marks `backoff.Permanent`
// stop the retry, so not every error is retried.
func (c *Client) publish(ctx context.Context, note string) error {
	operation := func() (struct{}, error) {
		err := c.remote.Push(ctx, note)
		if errors.Is(err, errRejected) {
			return struct{}{}, backoff.Permanent(fmt.Errorf("push rejected: %w", err))
		}
		return struct{}{}, err
	}
	_, err := backoff.Retry(ctx, operation, backoff.WithMaxTries(4))
	return err
}
