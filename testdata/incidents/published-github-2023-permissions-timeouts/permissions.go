// GitHub, 2023-05-10: an inefficient GitHub App permissions API, "when
// invoked by a new caller that retried on timeouts", drove write latency on
// the auth-token database cluster up 7x. The write-up gives no code: this is
// the behaviour it states (a write call, retried when it times out).
package permissions

import (
	"bytes"
	"errors"
	"net"
	"net/http"
	"time"
)

var client = &http.Client{Timeout: 10 * time.Second}

func UpdateInstallationPermissions(body []byte) (*http.Response, error) {
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequest(http.MethodPost,
			"http://apps-api.internal/installations/permissions", bytes.NewReader(body))
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
