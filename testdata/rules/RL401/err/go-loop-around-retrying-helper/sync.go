package billing

import (
	"net/http"
	"time"
)

var client = &http.Client{Timeout: 5 * time.Second}

// fetchInvoices retries the GET itself: 4 attempts.
func fetchInvoices() (*http.Response, error) {
	var lastErr error
	for i := 0; i < 4; i++ {
		resp, err := client.Get("http://invoices:8080/v1/invoices")
		if err == nil {
			return resp, nil
		}
		lastErr = err
		time.Sleep(time.Second)
	}
	return nil, lastErr
}

// Sync tries the helper 5 times: the helper's 4 attempts each time, 20
// GETs at the invoices service for one sync.
func Sync() error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		_, err = fetchInvoices()
		if err == nil {
			return nil
		}
		time.Sleep(2 * time.Second)
	}
	return err
}
