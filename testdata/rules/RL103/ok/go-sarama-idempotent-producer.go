package orders

import "github.com/IBM/sarama"

// An idempotent producer: the broker drops a retried batch it already
// appended (by the producer id and sequence number), so the retries
// cannot write a message twice.
func NewProducer() (sarama.SyncProducer, error) {
	cfg := sarama.NewConfig()
	cfg.Producer.Idempotent = true
	cfg.Net.MaxOpenRequests = 1
	cfg.Producer.RequiredAcks = sarama.WaitForAll
	cfg.Producer.Return.Successes = true
	return sarama.NewSyncProducer([]string{"kafka-0.kafka:9092"}, cfg)
}
