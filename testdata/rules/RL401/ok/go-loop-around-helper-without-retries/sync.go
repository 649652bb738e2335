package billing

import (
	"net/http"
	"time"
)

var client = &http.Client{Timeout: 5 * time.Second}

// fetchInvoices makes one GET: the loop around it is the only layer.
func fetchInvoices() (*http.Response, error) {
	return client.Get("http://invoices:8080/v1/invoices")
}

// Sync tries the helper 5 times: 5 GETs at the invoices service.
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
