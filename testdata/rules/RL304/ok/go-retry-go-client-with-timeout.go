package users

import (
	"net/http"
	"time"

	"github.com/avast/retry-go/v4"
)

// Each try ends after 2 s: 3 tries and their waits stay well under a minute.
func getUser(id string) (*http.Response, error) {
	client := &http.Client{Timeout: 2 * time.Second}
	var resp *http.Response
	err := retry.Do(func() error {
		var err error
		resp, err = client.Get("http://users:8080/users/" + id)
		return err
	}, retry.Attempts(3))
	return resp, err
}
