// The same background loop as `ok/go-loop-in-unwaited-goroutine.go`, but
// the caller waits for the goroutine (`wg.Wait()` after its
// `wg.Done()`): 60 tries 10 s apart hold the caller ten minutes.
package repoproxy

import (
	"context"
	"log"
	"sync"
	"time"
)

const ensureTagMaxRetry = 60
const ensureTagInterval = 10 * time.Second

func ensureTagAndWait(ctl Controller, tag string) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func(tag string) {
		defer wg.Done()
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
	wg.Wait()
}
