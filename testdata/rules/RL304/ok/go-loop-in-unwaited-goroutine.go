// A retry in a goroutine nobody waits on (goharbor/harbor c50c7ddd6e
// `src/server/middleware/repoproxy/proxy.go`): the handler answers and
// returns, the goroutine tags the pulled artifact in the background (60
// tries, 10 s apart). No caller's time bounds it: RL304 is not the
// rule for it (RL206 counts its attempts).
package repoproxy

import (
	"context"
	"log"
	"net/http"
	"time"
)

const ensureTagMaxRetry = 60
const ensureTagInterval = 10 * time.Second

func proxyManifestHead(ctx context.Context, w http.ResponseWriter, ctl Controller, tag string) error {
	go func(tag string) {
		bCtx := context.Background()
		for range ensureTagMaxRetry {
			time.Sleep(ensureTagInterval)
			err := ctl.EnsureTag(bCtx, tag)
			if err == nil {
				return
			}
			log.Printf("failed to ensure tag %s: %v", tag, err)
		}
	}(tag)
	w.Header().Set("Content-Type", "application/json")
	return nil
}
