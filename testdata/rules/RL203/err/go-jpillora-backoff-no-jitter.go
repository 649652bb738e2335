package forward

import (
	"context"
	"time"

	"github.com/jpillora/backoff"
)

// A jpillora/backoff counter without `Jitter`: 250 ms, 500 ms, 1 s, ..
// up to 4 s, the same for every caller (its `Jitter` is false unless set).
func (f *Forwarder) Send(ctx context.Context, batch []byte) error {
	b := &backoff.Backoff{
		Min: 250 * time.Millisecond,
		Max: 4 * time.Second,
	}
	var err error
	for i := 0; i < 4; i++ {
		if err = f.peer.Write(ctx, batch); err == nil {
			return nil
		}
		time.Sleep(b.Duration())
	}
	return err
}
