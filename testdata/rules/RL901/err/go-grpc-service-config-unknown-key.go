package users

import "google.golang.org/grpc"

// `retryableCodes` is no key of a retryPolicy, in any case: grpc-go
// ignores it and the policy retries nothing.
const serviceConfig = `{
	"methodConfig": [{
		"name": [{"service": "shop.Users"}],
		"retryPolicy": {
			"maxAttempts": 3,
			"initialBackoff": "0.1s",
			"maxBackoff": "1s",
			"backoffMultiplier": 2,
			"retryableCodes": ["UNAVAILABLE"]
		}
	}]
}`

func dial() (*grpc.ClientConn, error) {
	return grpc.NewClient("dns:///users:9090", grpc.WithDefaultServiceConfig(serviceConfig))
}
