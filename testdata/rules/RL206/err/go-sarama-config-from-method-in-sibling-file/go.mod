module example.com/orders

go 1.22

require github.com/IBM/sarama v1.43.0
