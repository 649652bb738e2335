// A Go loop that sends a GET again when it times out: a read, safe to
// send twice.
package permissions

import (
	"errors"
	"net"
	"net/http"
	"time"
)

var client = &http.Client{Timeout: 10 * time.Second}

func InstallationPermissions() (*http.Response, error) {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequest(http.MethodGet,
			"http://apps-api.internal/installations/permissions", nil)
		if err != nil {
			return nil, err
		}
		resp, err := client.Do(req)
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				lastErr = err
				continue
			}
			return nil, err
		}
		return resp, nil
	}
	return nil, lastErr
}
