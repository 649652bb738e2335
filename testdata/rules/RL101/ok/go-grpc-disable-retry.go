package orders

import (
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// The config would retry NOT_FOUND, but WithDisableRetry turns retries off
// whatever the service config says.
const serviceConfig = `{
  "methodConfig": [{
    "name": [{"service": "shop.Inventory"}],
    "retryPolicy": {
      "maxAttempts": 3,
      "initialBackoff": "0.1s",
      "maxBackoff": "1s",
      "backoffMultiplier": 2,
      "retryableStatusCodes": ["UNAVAILABLE", "NOT_FOUND"]
    }
  }]
}`

func dialInventory() (*grpc.ClientConn, error) {
	return grpc.NewClient("dns:///inventory:9090",
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultServiceConfig(serviceConfig),
		grpc.WithDisableRetry(),
	)
}
