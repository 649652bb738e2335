package engine

import (
	"context"
	"fmt"
	"time"
)

// Runs a sync until its phase completes: each pass advances the operation
// and reads its phase; no call's error goes round.
func (e *Engine) run(ctx context.Context, op *Operation, updated <-chan bool) ([]Result, error) {
	var err error
	for {
		op.Sync(ctx)
		phase, message, results := op.State()
		if phase.Completed() {
			if phase == PhaseFailed {
				err = fmt.Errorf("sync failed: %s", message)
			}
			return results, err
		}
		select {
		case <-ctx.Done():
			op.Terminate(ctx)
			return results, ctx.Err()
		case <-time.After(3 * time.Second):
		case <-updated:
		}
	}
}
