// The payment program's server: it calls the live service, whose address
// the environment gives, under retry-go.
package payment

import (
	"context"
	"os"

	"github.com/avast/retry-go/v4"
	"google.golang.org/grpc"
)

var liveServiceHost = os.Getenv("LIVE_SERVICE_HOST") + ":" + os.Getenv("LIVE_SERVICE_PORT")

// Serve runs the payment server (only `cmd/payment` calls it).
func Serve() error {
	return retry.Do(func() error {
		conn, err := grpc.NewClient(liveServiceHost)
		if err != nil {
			return err
		}
		defer conn.Close()
		return reserve(context.Background(), conn)
	}, retry.Attempts(3))
}
