package events

import (
	"time"

	"github.com/IBM/sarama"
)

// The config is built by a helper of the same file and passed as the
// helper's result: its 8 retries apply to the producer.
func kafkaConfig() *sarama.Config {
	c := sarama.NewConfig()
	c.Producer.Retry.Max = 8
	c.Producer.Retry.Backoff = 250 * time.Millisecond
	c.Producer.Return.Successes = true
	return c
}

func NewPublisher(brokers []string) (sarama.SyncProducer, error) {
	return sarama.NewSyncProducer(brokers, kafkaConfig())
}
