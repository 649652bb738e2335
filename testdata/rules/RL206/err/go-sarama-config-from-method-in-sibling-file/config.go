package orders

import (
	"time"

	"github.com/IBM/sarama"
)

type Writer struct {
	topic string
}

// The producer's config, built by a method: 9 retries, 10 attempts.
func (w *Writer) saramaConfig() *sarama.Config {
	c := sarama.NewConfig()
	c.Producer.Retry.Max = 9
	c.Producer.Retry.Backoff = 200 * time.Millisecond
	c.Producer.Return.Successes = true
	return c
}
