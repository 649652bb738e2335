package telemetry

import "github.com/IBM/sarama"

// RequiredAcks = NoResponse: the broker answers nothing, so no produce
// request times out waiting for it; only a failed connection is retried,
// before the batch was written.
func NewProducer() (sarama.AsyncProducer, error) {
	cfg := sarama.NewConfig()
	cfg.Producer.RequiredAcks = sarama.NoResponse
	return sarama.NewAsyncProducer([]string{"kafka-0.kafka:9092"}, cfg)
}
