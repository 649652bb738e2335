package rpc

import (
	"context"

	"github.com/cenkalti/backoff/v5"
)

// Every RPC method runs its own operation through this helper; each one
// returns `backoff.Permanent(err)` for the codes that cannot succeed, so
// what is retried is decided by the caller's operation, not here.
func retryRPC[T any](ctx context.Context, c *client, op backoff.Operation[T]) (T, error) {
	return backoff.Retry(ctx, op, backoff.WithMaxElapsedTime(c.retryTimeout))
}
