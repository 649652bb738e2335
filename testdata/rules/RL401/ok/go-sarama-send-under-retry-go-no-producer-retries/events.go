package events

import (
	"time"

	"github.com/IBM/sarama"
	"github.com/avast/retry-go/v4"
)

// The producer's own retries are off (`Producer.Retry.Max = 0`): retry-go's
// 3 attempts are the only layer.
func Publish(msg *sarama.ProducerMessage) error {
	cfg := sarama.NewConfig()
	cfg.Producer.Retry.Max = 0
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
