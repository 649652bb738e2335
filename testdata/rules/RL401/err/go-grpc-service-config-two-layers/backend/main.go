package main

import (
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// Backend -> storage: every RPC retried up to 3 times more, under the
// frontend's retries.
const serviceConfig = `{
  "methodConfig": [{
    "name": [{"service": "shakespeare.Storage"}],
    "timeout": "1s",
    "retryPolicy": {
      "maxAttempts": 4,
      "initialBackoff": "0.1s",
      "maxBackoff": "1s",
      "backoffMultiplier": 2,
      "retryableStatusCodes": ["UNAVAILABLE", "RESOURCE_EXHAUSTED", "DEADLINE_EXCEEDED"]
    }
  }]
}`

func main() {
	conn, err := grpc.NewClient("dns:///storage:9000",
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultServiceConfig(serviceConfig))
	if err != nil {
		panic(err)
	}
	defer conn.Close()
	serve(conn)
}
