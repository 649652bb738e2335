// The service configs are the dials' own: the attempts multiply along
// frontend -> backend -> storage, not towards a service named after the
// gRPC package `shakespeare`.
package main

import (
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// Frontend -> backend: every RPC retried up to 3 times more.
const serviceConfig = `{
  "methodConfig": [{
    "name": [{"service": "shakespeare.Search"}],
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
	conn, err := grpc.NewClient("dns:///backend:9000",
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultServiceConfig(serviceConfig))
	if err != nil {
		panic(err)
	}
	defer conn.Close()
	serve(conn)
}
