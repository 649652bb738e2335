// The checkout program (open-telemetry/opentelemetry-demo src/checkout's
// shape): its callees' addresses are struct fields filled from the
// environment by a helper of the file, then dialed through another
// helper's parameter or joined into a URL in a method.
package main

import (
	"context"
	"fmt"
	"net/http"
	"os"

	"github.com/IBM/sarama"
	"google.golang.org/grpc"
)

const retryPolicy = `{
  "methodConfig": [{
    "name": [{"service": "shop.Payment"}],
    "retryPolicy": {
      "maxAttempts": 3,
      "initialBackoff": "0.1s",
      "maxBackoff": "1s",
      "backoffMultiplier": 2,
      "retryableStatusCodes": ["UNAVAILABLE"]
    }
  }],
  "retryThrottling": {"maxTokens": 10, "tokenRatio": 0.1}
}`

type checkout struct {
	shippingSvcAddr    string
	paymentSvcAddr     string
	kafkaBrokerSvcAddr string
	httpClient         *http.Client
	producer           sarama.AsyncProducer
}

func main() {
	svc := new(checkout)
	svc.httpClient = &http.Client{Timeout: 5e9}

	mustMapEnv(&svc.shippingSvcAddr, "SHIPPING_ADDR")
	mustMapEnv(&svc.paymentSvcAddr, "PAYMENT_ADDR")
	c := mustCreateClient(svc.paymentSvcAddr)
	defer c.Close()

	svc.kafkaBrokerSvcAddr = os.Getenv("KAFKA_ADDR")
	if svc.kafkaBrokerSvcAddr != "" {
		cfg := sarama.NewConfig()
		svc.producer, _ = sarama.NewAsyncProducer([]string{svc.kafkaBrokerSvcAddr}, cfg)
	}
}

func mustMapEnv(target *string, envKey string) {
	v := os.Getenv(envKey)
	if v == "" {
		panic(fmt.Sprintf("environment variable %q not set", envKey))
	}
	*target = v
}

func mustCreateClient(svcAddr string) *grpc.ClientConn {
	c, err := grpc.NewClient(svcAddr, grpc.WithDefaultServiceConfig(retryPolicy))
	if err != nil {
		panic(err)
	}
	return c
}

func (cs *checkout) quote(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, "POST", cs.shippingSvcAddr+"/get-quote", nil)
	if err != nil {
		return err
	}
	resp, err := cs.httpClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
