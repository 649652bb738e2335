package orders

import (
	"math/rand"
	"time"

	"github.com/IBM/sarama"
)

// `BackoffFunc` takes precedence over `Backoff`: a growing, jittered wait.
func NewProducer() (sarama.SyncProducer, error) {
	cfg := sarama.NewConfig()
	cfg.Producer.Retry.Max = 5
	cfg.Producer.Retry.Backoff = 100 * time.Millisecond
	cfg.Producer.Retry.BackoffFunc = func(retries, maxRetries int) time.Duration {
		d := 100 * time.Millisecond << retries
		return d/2 + time.Duration(rand.Int63n(int64(d)))
	}
	cfg.Producer.Return.Successes = true
	return sarama.NewSyncProducer([]string{"kafka:9092"}, cfg)
}
