// The gateway program's server: one call to payment through the payment
// package's client, no retry.
package gateway

import (
	"example.com/back/internal/payment"
)

func Serve() error {
	conn, err := payment.NewClient()
	if err != nil {
		return err
	}
	return conn.Close()
}
