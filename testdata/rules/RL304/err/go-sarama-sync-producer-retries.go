package orders

import (
	"time"

	"github.com/IBM/sarama"
)

// A synchronous producer: SendMessage blocks the handler until the last
// of 6 attempts, each up to Net.WriteTimeout + Net.ReadTimeout = 20 s:
// up to 2 minutes, far past the caller's own timeout.
func NewProducer() (sarama.SyncProducer, error) {
	cfg := sarama.NewConfig()
	cfg.Producer.Idempotent = true
	cfg.Net.MaxOpenRequests = 1
	cfg.Producer.RequiredAcks = sarama.WaitForAll
	cfg.Producer.Return.Successes = true
	cfg.Producer.Retry.Max = 5
	cfg.Net.WriteTimeout = 10 * time.Second
	cfg.Net.ReadTimeout = 10 * time.Second
	return sarama.NewSyncProducer([]string{"kafka-0.kafka:9092"}, cfg)
}
