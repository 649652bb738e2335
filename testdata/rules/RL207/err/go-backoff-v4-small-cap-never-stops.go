package relay

import (
	"time"

	"github.com/cenkalti/backoff/v4"
)

// Retried until delivered (`MaxElapsedTime = 0`: never stops), the wait
// held at 2 s: through an outage the relay calls every 2 s.
func (r *Relay) deliver(ev Event) error {
	b := backoff.NewExponentialBackOff()
	b.MaxInterval = 2 * time.Second
	b.MaxElapsedTime = 0
	return backoff.Retry(func() error {
		return r.sink.Send(ev)
	}, b)
}
