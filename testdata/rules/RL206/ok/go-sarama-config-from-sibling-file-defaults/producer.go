package events

import "github.com/IBM/sarama"

// `Producer.Retry.Max` is not set in config.go: sarama's 3 retries.
func NewPublisher() (sarama.SyncProducer, error) {
	return sarama.NewSyncProducer([]string{"kafka-0.kafka:9092"}, newConfig())
}
