package payment

import (
	"context"

	"google.golang.org/grpc"
)

// The dial targets are not known in this file (NeptuneG/go-back's payment
// service builds them from the environment), yet the service config is
// the program's: its retry policy (NOT_FOUND retried) is read all the same. grpc-go matches
// the keys case-insensitively and reads `.01s` as 10 ms, so neither is
// reported.
const retryPolicy = `{
	"methodConfig": [{
		"name": [{"service": "shop.UserService", "method": "ConsumeUserPoints"}],
		"retryPolicy": {
			"MaxAttempts": 4,
			"InitialBackoff": ".01s",
			"MaxBackoff": ".01s",
			"BackoffMultiplier": 1.0,
			"RetryableStatusCodes": ["NOT_FOUND"]
		}
	}]
}`

func dial(ctx context.Context, usersAddr, liveAddr string) (*grpc.ClientConn, *grpc.ClientConn, error) {
	opts := []grpc.DialOption{
		grpc.WithDefaultServiceConfig(retryPolicy),
	}
	users, err := grpc.DialContext(ctx, usersAddr, opts...)
	if err != nil {
		return nil, nil, err
	}
	live, err := grpc.DialContext(ctx, liveAddr, opts...)
	return users, live, err
}
