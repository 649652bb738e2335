// A Go loop that retries only a refused connection: a service that is
// overloaded accepts the connection and answers late; a refused one never
// received the request. Timeouts leave at once.
package quotes

import (
	"errors"
	"net/http"
	"syscall"
	"time"
)

var client = &http.Client{Timeout: 2 * time.Second}

func Quote(url string) (*http.Response, error) {
	var last error
	for attempt := 0; attempt < 4; attempt++ {
		resp, err := client.Get(url)
		if err != nil {
			if errors.Is(err, syscall.ECONNREFUSED) {
				last = err
				time.Sleep(200 * time.Millisecond)
				continue
			}
			return nil, err
		}
		return resp, nil
	}
	return nil, last
}
