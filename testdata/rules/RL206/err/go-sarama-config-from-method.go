package events

import (
	"time"

	"github.com/IBM/sarama"
)

type Publisher struct {
	topic string
}

// The config is built by a method of the publisher and passed as its
// result: its 12 retries (13 attempts) apply to the producer.
func (p *Publisher) config() *sarama.Config {
	cfg := sarama.NewConfig()
	cfg.Producer.Return.Successes = true
	cfg.Producer.Retry.Max = 12
	cfg.Producer.Retry.Backoff = 250 * time.Millisecond
	return cfg
}

func (p *Publisher) Start(brokers []string) (sarama.SyncProducer, error) {
	return sarama.NewSyncProducer(brokers, p.config())
}
