package events

import "github.com/IBM/sarama"

// The settings function makes the producer idempotent: the broker drops
// a retried batch it already appended, so a retry after
// `REQUEST_TIMED_OUT` appends nothing twice.
func newConfig() *sarama.Config {
	cfg := sarama.NewConfig()
	cfg.Producer.RequiredAcks = sarama.WaitForAll
	cfg.Producer.Idempotent = true
	cfg.Net.MaxOpenRequests = 1
	cfg.Producer.Return.Successes = true
	return cfg
}
