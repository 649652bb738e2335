package frontend

import (
	"net/http"
	"os"
	"time"

	"github.com/avast/retry-go/v4"
)

// `addr` in fetch is its parameter, not main's `addr := os.Getenv(..)`
// (microservices-demo's frontend has this shape): the call's target is
// not known here, and is not listed as the environment variable.
func main() {
	addr := os.Getenv("LISTEN_ADDR")
	_ = http.ListenAndServe(addr, nil)
}

func fetch(addr string) error {
	client := &http.Client{Timeout: 2 * time.Second}
	return retry.Do(func() error {
		_, err := client.Get(addr)
		return err
	}, retry.Attempts(3))
}
