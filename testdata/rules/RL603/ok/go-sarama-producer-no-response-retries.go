package telemetry

import "github.com/IBM/sarama"

// RequiredAcks = NoResponse: the broker sends no answer, so none can time
// out; the producer retries only a batch whose connection failed, which a
// saturated broker does not cause.
func NewProducer() (sarama.AsyncProducer, error) {
	cfg := sarama.NewConfig()
	cfg.Producer.RequiredAcks = sarama.NoResponse
	cfg.Producer.Retry.Max = 8
	return sarama.NewAsyncProducer([]string{"kafka-0.kafka:9092"}, cfg)
}
