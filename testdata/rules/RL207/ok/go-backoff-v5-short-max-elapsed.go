package notes

import (
	"context"
	"time"

	"github.com/cenkalti/backoff/v5"
)

// The backoff stops growing at 1 s, but the whole retry ends after 4 s:
// a few waits of the cap, not a pace kept up through an outage.
func (c *Client) pushNote(ctx context.Context, ref string) error {
	b := backoff.NewExponentialBackOff()
	b.InitialInterval = 50 * time.Millisecond
	b.MaxInterval = time.Second
	_, err := backoff.Retry(ctx, func() (struct{}, error) {
		return struct{}{}, c.git.Push(ctx, ref)
	}, backoff.WithBackOff(b), backoff.WithMaxElapsedTime(4*time.Second))
	return err
}
