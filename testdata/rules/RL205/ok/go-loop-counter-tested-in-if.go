// A `for` with no condition whose counter is tested in an `if` that
// leaves (dapr d845074 `pkg/actors/targets/workflow/activity/drive.go`):
// three attempts, not a loop without a limit.
package activity

import (
	"context"
	"time"
)

const localDriveMaxAttempts = 3

func (f *factory) drive(ctx context.Context, reminder *Reminder) error {
	var err error
	for attempt := 1; ; attempt++ {
		err = f.router.CallReminder(ctx, reminder)
		if err == nil {
			return nil
		}
		if ctx.Err() != nil || attempt >= localDriveMaxAttempts {
			break
		}
		select {
		case <-ctx.Done():
		case <-time.After(f.backoff.NextBackOff()):
			continue
		}
		break
	}
	return err
}
