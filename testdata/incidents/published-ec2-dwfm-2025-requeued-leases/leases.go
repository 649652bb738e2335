package dwfm

import (
	"context"
	"net/http"
	"time"
)

// The droplet workflow manager keeps a lease on every physical server. After
// DynamoDB came back, re-establishing the leases of the whole fleet took so
// long that attempts timed out, and timed-out work was queued again, so the
// queue never drained (congestive collapse).
var droplets = &http.Client{Timeout: 30 * time.Second}

func ReestablishLeases(ctx context.Context, queue chan string) {
	for droplet := range queue {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+droplet+"/lease", nil)
		resp, err := droplets.Do(req)
		if err != nil {
			queue <- droplet // timed out: queue the work again
			continue
		}
		resp.Body.Close()
	}
}
