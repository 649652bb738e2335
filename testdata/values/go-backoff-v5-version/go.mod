module example.com/shop

go 1.23

require (
	github.com/cenkalti/backoff/v5 v5.0.3
	github.com/google/uuid v1.6.0 // indirect
)
