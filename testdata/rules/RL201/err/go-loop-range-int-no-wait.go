package dispatch

import (
	"context"
	"log/slog"
)

type store interface {
	Courier(ctx context.Context, id string) (string, error)
}

// A retry written with Go 1.22's `for i := range 3`: three reads of the same key, one right
// after the other, when the store fails.
func courier(ctx context.Context, s store, id string) (string, error) {
	var name string
	var err error
	for i := range 3 {
		name, err = s.Courier(ctx, id)
		if err == nil {
			break
		}
		slog.Warn("courier lookup failed", "attempt", i+1, "err", err)
	}
	return name, err
}
