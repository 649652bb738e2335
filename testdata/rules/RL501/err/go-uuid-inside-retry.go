package payments

import (
	"bytes"
	"net/http"
	"time"

	"github.com/avast/retry-go/v4"
	"github.com/google/uuid"
)

// A new idempotency key per attempt: the server cannot tell a retry from
// a new payment.
func charge(body []byte) error {
	client := &http.Client{Timeout: 3 * time.Second}
	return retry.Do(func() error {
		req, err := http.NewRequest("POST", "http://payments:8080/charges", bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", uuid.NewString())
		_, err = client.Do(req)
		return err
	}, retry.Attempts(3))
}
