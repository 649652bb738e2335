package leases

import (
	"context"
	"net/http"
	"time"
)

var hosts = &http.Client{Timeout: 30 * time.Second}

// Work that failed is put back on the channel the loop reads: the same
// request comes round again with no wait and no limit. When the calls time
// out, the queue only grows (the shape of the EC2 DWFM collapse of
// October 2025).
func Renew(ctx context.Context, queue chan string) {
	for host := range queue {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://leases/renew?host="+host, nil)
		resp, err := hosts.Do(req)
		if err != nil {
			queue <- host
			continue
		}
		resp.Body.Close()
	}
}
