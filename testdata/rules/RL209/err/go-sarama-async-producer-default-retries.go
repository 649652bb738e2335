package events

import "github.com/IBM/sarama"

// An asynchronous producer with sarama's default retries: 3 retries,
// 100 ms apart. A partition leader election takes longer than the 300 ms
// they span, so every message sent during one comes back on Errors() and
// is not sent again: the handler that put it on Input() has long
// returned.
func NewProducer() (sarama.AsyncProducer, error) {
	cfg := sarama.NewConfig()
	cfg.Producer.Idempotent = true
	cfg.Net.MaxOpenRequests = 1
	cfg.Producer.RequiredAcks = sarama.WaitForAll
	return sarama.NewAsyncProducer([]string{"kafka-0.kafka:9092"}, cfg)
}
