package events

import "github.com/IBM/sarama"

// The config, idempotent, comes from config.go.
func NewPublisher() (sarama.SyncProducer, error) {
	return sarama.NewSyncProducer([]string{"kafka-0.kafka:9092"}, newConfig())
}
