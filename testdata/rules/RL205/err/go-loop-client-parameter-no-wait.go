package members

import (
	"net/http"
	"time"
)

// The file's own client: what makes the file worth reading.
var Default = &http.Client{Timeout: 2 * time.Second}

// The client comes in as a parameter: nothing in the body names a package
// or a client the file declares, yet the loop asks again at once on every
// error, for ever.
func Ask(c *http.Client, url string) (*http.Response, error) {
	for {
		resp, err := c.Get(url)
		if err != nil {
			continue
		}
		return resp, nil
	}
}
