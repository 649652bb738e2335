package billing

import (
	"context"
	"time"

	"github.com/sethvargo/go-retry"
)

// Four retries at most, each wait jittered by 10%.
func charge(ctx context.Context, c *Client, id string) error {
	b := retry.NewExponential(100 * time.Millisecond)
	b = retry.WithJitterPercent(10, b)
	b = retry.WithMaxRetries(4, b)
	return retry.Do(ctx, b, func(ctx context.Context) error {
		if err := c.Charge(ctx, id); err != nil {
			return retry.RetryableError(err)
		}
		return nil
	})
}
