package users

import "google.golang.org/grpc"

// Only grpc-go reads this config, and it matches keys case-insensitively
// (encoding/json): `MaxAttempts` and the rest are read, not ignored.
const serviceConfig = `{
	"methodConfig": [{
		"name": [{"service": "shop.Users"}],
		"retryPolicy": {
			"MaxAttempts": 3,
			"InitialBackoff": "0.1s",
			"MaxBackoff": "1s",
			"BackoffMultiplier": 2,
			"RetryableStatusCodes": ["UNAVAILABLE"]
		}
	}]
}`

func dial() (*grpc.ClientConn, error) {
	return grpc.NewClient("dns:///users:9090", grpc.WithDefaultServiceConfig(serviceConfig))
}
