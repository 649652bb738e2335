package users

import (
	"net/http"

	"github.com/avast/retry-go/v4"
)

// http.Get uses http.DefaultClient, which has no Timeout: one hung try
// waits for ever, and so do the retries.
func getUser(id string) (*http.Response, error) {
	var resp *http.Response
	err := retry.Do(func() error {
		var err error
		resp, err = http.Get("http://users:8080/users/" + id)
		return err
	}, retry.Attempts(3))
	return resp, err
}
