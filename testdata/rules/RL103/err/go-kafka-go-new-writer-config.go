package orders

import "github.com/segmentio/kafka-go"

// The deprecated NewWriter(WriterConfig) asks every replica to
// acknowledge when RequiredAcks is 0 (kafka-go writer.go: `if
// config.RequiredAcks == 0 { w.RequiredAcks = RequireAll }`): a batch
// whose answer timed out is retried, and may be appended twice.
func NewWriter() *kafka.Writer {
	return kafka.NewWriter(kafka.WriterConfig{
		Brokers:     []string{"kafka:9092"},
		Topic:       "payments",
		MaxAttempts: 3,
	})
}
