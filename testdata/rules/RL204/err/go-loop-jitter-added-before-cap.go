// The jitter is added to the growing delay before the cap (`min(backoff*2 +
// jitter, maxBackoff)`): once the delay passes 5 minutes every client
// waits exactly 5 minutes, and a fleet that lost its server together
// comes back together (fleetdm/fleet #53357, a 28-minute outage).
package orbit

import (
	"context"
	"math/rand"
	"net/http"
	"time"
)

const maxBackoff = 5 * time.Minute

type Client struct {
	http *http.Client
	url  string
}

func (c *Client) Config(ctx context.Context) *http.Response {
	backoff := time.Second
	for attempt := 0; attempt < 50; attempt++ {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, c.url+"/config", nil)
		resp, err := c.http.Do(req)
		if err == nil {
			return resp
		}
		jitter := time.Duration(rand.Int63n(int64(backoff) / 10))
		backoff = min(backoff*2+jitter, maxBackoff)
		time.Sleep(backoff)
	}
	return nil
}
