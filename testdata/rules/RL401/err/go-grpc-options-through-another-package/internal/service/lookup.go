package service

import (
	"context"
	_ "embed"
	"time"

	"github.com/avast/retry-go/v4"
	"google.golang.org/grpc"

	"example.com/lookup/internal/users"
)

// The service config reaches the dial through users.NewClient, in
// another package of the module: the channel retries 4 times on
// UNAVAILABLE, and retry-go retries the dial and call 5 times around it:
// 20 attempts at the users service for one lookup.
//
//go:embed config/retry_policy.json
var retryPolicy string

func Lookup(ctx context.Context, id string) error {
	opts := []grpc.DialOption{grpc.WithDefaultServiceConfig(retryPolicy)}
	return retry.Do(func() error {
		conn, err := users.NewClient(ctx, opts...)
		if err != nil {
			return err
		}
		defer conn.Close()
		return call(ctx, conn, id)
	}, retry.Attempts(5), retry.Delay(200*time.Millisecond))
}
