package events

import "github.com/IBM/sarama"

// The config comes from config.go: 10 retries 500 ms apart.
func NewPublisher() (sarama.SyncProducer, error) {
	cfg := newConfig()
	cfg.ClientID = "orders"
	return sarama.NewSyncProducer([]string{"kafka-0.kafka:9092"}, cfg)
}
