module example.com/counter

go 1.22

require google.golang.org/grpc v1.64.0
