package users

import (
	"context"
	_ "embed"
	"time"

	"github.com/avast/retry-go/v4"
	"google.golang.org/grpc"
)

// The channel does not retry (WithDisableRetry wins over the embedded
// service config): retry-go is the one retry layer, 5 attempts at the
// users service for one lookup.
//
//go:embed config/retry_policy.json
var retryPolicy string

func lookup(ctx context.Context, id string) error {
	return retry.Do(func() error {
		conn, err := grpc.NewClient("dns:///users:9090", grpc.WithDefaultServiceConfig(retryPolicy), grpc.WithDisableRetry())
		if err != nil {
			return err
		}
		defer conn.Close()
		return call(ctx, conn, id)
	}, retry.Attempts(5), retry.Delay(200*time.Millisecond))
}
