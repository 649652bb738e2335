package orders

import (
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// NOT_FOUND is the server's answer, not a failure a retry can mend.
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
	)
}
