// The delay is capped first and the jitter added to the capped value:
// waits at the cap are spread between 5 and 10 minutes.
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
		backoff = min(backoff*2, maxBackoff)
		time.Sleep(backoff + time.Duration(rand.Int63n(int64(backoff))))
	}
	return nil
}
