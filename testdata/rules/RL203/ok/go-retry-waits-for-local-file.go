package install

import (
	"context"
	"os"
	"time"

	"github.com/pkg/errors"
	"github.com/sethvargo/go-retry"
)

// Waiting for a file another process writes on this host: every pass only
// stats a local path. No service is asked again, so a fixed wait spares
// no one and needs no jitter.
func waitForConfig(ctx context.Context, path string) error {
	backoff := retry.WithMaxDuration(5*time.Minute, retry.NewConstant(time.Second))
	return retry.Do(ctx, backoff, func(ctx context.Context) error {
		if _, err := os.Stat(path); err == nil {
			return nil
		}
		err := errors.Errorf("config %q not found", path)
		log.Error(err, "waiting for the config")
		return retry.RetryableError(err)
	})
}
