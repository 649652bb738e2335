package orders

import "github.com/IBM/sarama"

// The broker answers REQUEST_TIMED_OUT when the replicas did not
// acknowledge within Producer.Timeout, which is what a saturated broker
// does; every producer then sends each batch up to 8 more times, 100 ms
// apart, with nothing limiting the retries as a whole.
func NewProducer() (sarama.SyncProducer, error) {
	cfg := sarama.NewConfig()
	cfg.Producer.Idempotent = true
	cfg.Net.MaxOpenRequests = 1
	cfg.Producer.RequiredAcks = sarama.WaitForAll
	cfg.Producer.Return.Successes = true
	cfg.Producer.Retry.Max = 8
	return sarama.NewSyncProducer([]string{"kafka-0.kafka:9092"}, cfg)
}
