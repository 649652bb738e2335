package orders

import "github.com/IBM/sarama"

// sarama's producer defaults: each message retried 3 times, 100 ms apart,
// the same wait every time and no jitter: every producer that lost the
// partition leader comes back in the same instant.
func NewProducer() (sarama.AsyncProducer, error) {
	cfg := sarama.NewConfig()
	cfg.Producer.Return.Successes = true
	return sarama.NewAsyncProducer([]string{"kafka-0.kafka:9092", "kafka-1.kafka:9092"}, cfg)
}
