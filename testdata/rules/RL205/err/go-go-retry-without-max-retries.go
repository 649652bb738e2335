package billing

import (
	"context"
	"time"

	"github.com/sethvargo/go-retry"
)

// go-retry's back-offs never stop by themselves: without WithMaxRetries
// or WithMaxDuration this retries for as long as the charge fails.
func charge(ctx context.Context, c *Client, id string) error {
	b := retry.NewExponential(100 * time.Millisecond)
	b = retry.WithJitterPercent(10, b)
	return retry.Do(ctx, b, func(ctx context.Context) error {
		if err := c.Charge(ctx, id); err != nil {
			return retry.RetryableError(err)
		}
		return nil
	})
}
