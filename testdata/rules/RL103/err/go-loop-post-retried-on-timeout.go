// A Go loop that sends a POST again when it times out: the first may
// have been done (issue 28, GitHub 2023).
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
