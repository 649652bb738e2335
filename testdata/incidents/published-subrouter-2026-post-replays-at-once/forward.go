package proxy

import (
	"bytes"
	"net/http"
)

// forwardResponses replays a POST /v1/responses to the upstream on a
// transport error, up to six attempts, with no wait between them.
func forwardResponses(client *http.Client, upstream string, body []byte) (*http.Response, error) {
	var lastErr error
	for attempt := 0; attempt < 6; attempt++ {
		req, err := http.NewRequest(http.MethodPost, upstream+"/v1/responses", bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		resp, err := client.Do(req)
		if err != nil {
			lastErr = err
			continue
		}
		return resp, nil
	}
	return nil, lastErr
}
