package users

import (
	"context"
	_ "embed"
	"time"

	"github.com/avast/retry-go/v4"
	"google.golang.org/grpc"
)

// The channel retries with the embedded service config (4 attempts on
// UNAVAILABLE), and retry-go retries the whole dial and call 5 times
// around it: 20 attempts at the users service for one lookup.
//
//go:embed config/retry_policy.json
var retryPolicy string

func lookup(ctx context.Context, id string) error {
	return retry.Do(func() error {
		conn, err := grpc.NewClient("dns:///users:9090", grpc.WithDefaultServiceConfig(retryPolicy))
		if err != nil {
			return err
		}
		defer conn.Close()
		return call(ctx, conn, id)
	}, retry.Attempts(5), retry.Delay(200*time.Millisecond))
}
