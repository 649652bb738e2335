package notify

import (
	"context"
	"fmt"

	"github.com/cenkalti/backoff/v5"
)

// Retries a notification on each tick until the group's context ends it.
func deliver(ctx context.Context, n Notifier, msg Message) error {
	tick := backoff.NewTicker(backoff.NewExponentialBackOff())
	defer tick.Stop()
	attempts := 0
	for {
		select {
		case <-ctx.Done():
			return fmt.Errorf("gave up after %d attempts: %w", attempts, ctx.Err())
		case <-tick.C:
			attempts++
			retry, err := n.Notify(ctx, msg)
			if err == nil {
				return nil
			}
			if !retry {
				return err
			}
		}
	}
}
