package events

import (
	"time"

	"github.com/IBM/sarama"
	"github.com/avast/retry-go/v4"
)

// The producer retries each message 5 times (6 attempts), and retry-go
// sends it again 3 times around that: 18 produce requests at the brokers
// for one order event.
func Publish(msg *sarama.ProducerMessage) error {
	cfg := sarama.NewConfig()
	cfg.Producer.Retry.Max = 5
	cfg.Producer.Retry.Backoff = 250 * time.Millisecond
	cfg.Producer.Return.Successes = true
	producer, err := sarama.NewSyncProducer([]string{"kafka-0.kafka:9092"}, cfg)
	if err != nil {
		return err
	}
	defer producer.Close()
	return retry.Do(func() error {
		_, _, err := producer.SendMessage(msg)
		return err
	}, retry.Attempts(3), retry.Delay(time.Second))
}
