package orders

import "github.com/IBM/sarama"

// sarama's producer is not idempotent by default (Producer.Idempotent
// false) and retries a produce request the broker answered
// REQUEST_TIMED_OUT: the broker may have appended the batch already, and
// the retry appends it again, a duplicate order event.
func NewProducer() (sarama.SyncProducer, error) {
	cfg := sarama.NewConfig()
	cfg.Producer.RequiredAcks = sarama.WaitForAll
	cfg.Producer.Return.Successes = true
	return sarama.NewSyncProducer([]string{"kafka-0.kafka:9092"}, cfg)
}
