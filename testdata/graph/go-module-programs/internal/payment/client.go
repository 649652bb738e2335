package payment

import (
	"os"

	"google.golang.org/grpc"
)

// NewClient dials the payment service: what the gateway uses of this
// package (it never runs Serve).
func NewClient() (*grpc.ClientConn, error) {
	return grpc.NewClient(os.Getenv("PAYMENT_SERVICE_HOST") + ":3377")
}
