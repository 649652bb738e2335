package events

import (
	"time"

	"github.com/IBM/sarama"
)

// Retries that span a leader election: 10 retries, 2 s apart (20 s).
func NewProducer() (sarama.AsyncProducer, error) {
	cfg := sarama.NewConfig()
	cfg.Producer.Idempotent = true
	cfg.Net.MaxOpenRequests = 1
	cfg.Producer.RequiredAcks = sarama.WaitForAll
	cfg.Producer.Retry.Max = 10
	cfg.Producer.Retry.Backoff = 2 * time.Second
	return sarama.NewAsyncProducer([]string{"kafka-0.kafka:9092"}, cfg)
}

// A synchronous producer hands its error to the caller that waits on
// SendMessage: not judged, however short its retries.
func NewSync() (sarama.SyncProducer, error) {
	cfg := sarama.NewConfig()
	cfg.Producer.Return.Successes = true
	cfg.Producer.Idempotent = true
	cfg.Net.MaxOpenRequests = 1
	cfg.Producer.RequiredAcks = sarama.WaitForAll
	return sarama.NewSyncProducer([]string{"kafka-0.kafka:9092"}, cfg)
}
