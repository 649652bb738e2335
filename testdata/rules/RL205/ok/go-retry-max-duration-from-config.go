package bootstrap

import (
	"context"

	"github.com/sethvargo/go-retry"
)

// The time spent retrying is capped by `WithMaxDuration`; its length
// comes from the configuration, unknown here, but a cap is written.
func fetch(ctx context.Context, cfg Config, client Client) ([]byte, error) {
	var body []byte
	backoff := retry.WithMaxDuration(cfg.Retry.MaxDuration, retry.NewConstant(cfg.Retry.Backoff))
	err := retry.Do(ctx, backoff, func(ctx context.Context) error {
		b, err := client.Bootstrap(ctx)
		if err != nil {
			return retry.RetryableError(err)
		}
		body = b
		return nil
	})
	return body, err
}
