package events

import "github.com/IBM/sarama"

// The settings function leaves the retries at sarama's defaults.
func newConfig() *sarama.Config {
	cfg := sarama.NewConfig()
	cfg.Producer.RequiredAcks = sarama.WaitForAll
	cfg.Producer.Idempotent = true
	cfg.Net.MaxOpenRequests = 1
	cfg.Producer.Return.Successes = true
	return cfg
}
