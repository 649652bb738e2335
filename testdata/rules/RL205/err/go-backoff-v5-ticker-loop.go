package notify

import (
	"context"
	"log"

	"github.com/cenkalti/backoff/v5"
)

// Sends on every tick of a v5 exponential backoff until it works: v5's
// `ExponentialBackOff` never says stop and nothing else ends the loop.
func deliver(ctx context.Context, n Notifier, msg Message) {
	tick := backoff.NewTicker(backoff.NewExponentialBackOff())
	defer tick.Stop()
	for range tick.C {
		if err := n.Notify(ctx, msg); err != nil {
			log.Printf("notify failed, will retry: %v", err)
			continue
		}
		return
	}
}
