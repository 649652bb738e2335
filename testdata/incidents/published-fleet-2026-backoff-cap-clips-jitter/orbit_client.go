// fleetdm/fleet pull request #53357 (September 2026), from the RCA of a
// 28-minute server outage: the agent's config backoff stopped at 5
// minutes, and its 10% jitter was added before the cap, so at the cap
// every agent waited exactly 5 minutes and the fleet came back at once.
// The loop's shape and first wait are this reconstruction's.
package orbit

import (
	"context"
	"math/rand"
	"net/http"
	"time"
)

const maxConfigBackoff = 5 * time.Minute

type OrbitClient struct {
	http *http.Client
	url  string
}

func (oc *OrbitClient) getConfig(ctx context.Context) (*http.Response, error) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, oc.url+"/api/fleet/orbit/config", nil)
	return oc.http.Do(req)
}

func (oc *OrbitClient) ConfigLoop(ctx context.Context) *http.Response {
	backoff := time.Second
	for {
		resp, err := oc.getConfig(ctx)
		if err == nil {
			return resp
		}
		jitter := time.Duration(rand.Int63n(int64(backoff) / 10))
		backoff = min(backoff*2+jitter, maxConfigBackoff)
		time.Sleep(backoff)
	}
}
