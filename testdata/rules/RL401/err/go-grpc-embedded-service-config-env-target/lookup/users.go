package main

import (
	"context"
	_ "embed"
	"os"
	"time"

	"github.com/avast/retry-go/v4"
	"google.golang.org/grpc"
)

// As go-grpc-embedded-service-config-under-retry-go, with the target
// read from the environment (NeptuneG/go-back's
// `os.Getenv("LIVE_SERVICE_HOST") + ":" + ..`): compose sets
// USERS_SERVICE_HOST to `users`, so the dial's call goes there with the
// embedded config's 4 attempts, retried 5 times by retry-go: 20.
//
//go:embed config/retry_policy.json
var retryPolicy string

var usersAddr = os.Getenv("USERS_SERVICE_HOST") + ":" + os.Getenv("USERS_SERVICE_PORT")

func lookup(ctx context.Context, id string) error {
	return retry.Do(func() error {
		conn, err := grpc.NewClient(usersAddr, grpc.WithDefaultServiceConfig(retryPolicy))
		if err != nil {
			return err
		}
		defer conn.Close()
		return call(ctx, conn, id)
	}, retry.Attempts(5), retry.Delay(200*time.Millisecond))
}
