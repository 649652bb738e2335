package frontend

import (
	"context"
	"net/http"
	"time"
)

type prober interface {
	Ready()
	NotReady(err error)
}

// A readiness probe of the downstream every 10 s until shutdown: each
// pass checks again whether the last check worked or not, and the loop
// ends only when it is told to stop. Not a retry.
func watchDownstream(ctx context.Context, client *http.Client, url string, p prober) error {
	first := true
	for {
		if !first {
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(10 * time.Second):
			}
		}
		first = false
		resp, err := client.Get(url)
		if err != nil {
			p.NotReady(err)
			continue
		}
		resp.Body.Close()
		p.Ready()
	}
}
