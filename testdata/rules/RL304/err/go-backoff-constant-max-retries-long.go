package sync

import (
	"context"
	"time"

	"github.com/cenkalti/backoff/v4"
)

type Store interface {
	Put(ctx context.Context, key string, v []byte) error
}

// Ten retries 10 s apart: 100 s of waits, and no deadline but the count.
func save(ctx context.Context, s Store, key string, v []byte) error {
	return backoff.Retry(func() error {
		return s.Put(ctx, key, v)
	}, backoff.WithMaxRetries(backoff.NewConstantBackOff(10*time.Second), 10))
}
