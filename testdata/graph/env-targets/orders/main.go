// The orders program: its live-service address from the environment.
package main

import (
	"context"
	"os"

	"github.com/avast/retry-go/v4"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

var liveServiceHost = os.Getenv("LIVE_SERVICE_HOST") + ":" + os.Getenv("LIVE_SERVICE_PORT")

func main() {
	_ = retry.Do(func() error {
		conn, err := grpc.DialContext(context.Background(), liveServiceHost,
			grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			return err
		}
		return conn.Close()
	}, retry.Attempts(3))
}
