package events

import (
	"time"

	"github.com/IBM/sarama"
)

// The producer's settings, kept apart from the code that sends.
func newConfig() *sarama.Config {
	cfg := sarama.NewConfig()
	cfg.Producer.RequiredAcks = sarama.WaitForAll
	cfg.Producer.Retry.Max = 10
	cfg.Producer.Retry.Backoff = 500 * time.Millisecond
	cfg.Producer.Return.Successes = true
	return cfg
}
