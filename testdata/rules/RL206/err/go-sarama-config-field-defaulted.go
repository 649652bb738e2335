package events

import (
	"time"

	"github.com/IBM/sarama"
)

type PublisherConfig struct {
	// Sarama settings; the default below when the caller gives none.
	SaramaConfig *sarama.Config
}

func (c *PublisherConfig) setDefaults() {
	if c.SaramaConfig == nil {
		c.SaramaConfig = DefaultPublisherSaramaConfig()
	}
}

// DefaultPublisherSaramaConfig: 12 retries (13 attempts) per message.
func DefaultPublisherSaramaConfig() *sarama.Config {
	cfg := sarama.NewConfig()
	cfg.Producer.Retry.Max = 12
	cfg.Producer.Retry.Backoff = 250 * time.Millisecond
	cfg.Producer.Return.Successes = true
	return cfg
}

// NewPublisher: the config is the caller's field, defaulted by
// setDefaults; the default's retries apply when the caller leaves it.
func NewPublisher(config PublisherConfig) (sarama.SyncProducer, error) {
	config.setDefaults()
	return sarama.NewSyncProducer([]string{"kafka-0.kafka:9092"}, config.SaramaConfig)
}
