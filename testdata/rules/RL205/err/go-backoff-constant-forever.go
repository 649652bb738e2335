package queue

import (
	"time"

	"github.com/cenkalti/backoff/v4"
)

// A constant backoff never stops: no WithMaxRetries.
func publish(send func() error) error {
	return backoff.Retry(send, backoff.NewConstantBackOff(time.Second))
}
