package leases

import (
	"context"
	"net/http"
)

// Failed work goes to another channel (a dead-letter queue), and work the
// loop sends on its own channel is new work, not the item it failed: neither
// is a retry.
func Renew(ctx context.Context, queue chan string, failed chan<- string) {
	for host := range queue {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://leases/renew?host="+host, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			failed <- host
			continue
		}
		resp.Body.Close()
		queue <- "child-of-" + resp.Header.Get("X-Next")
	}
}
