module example.com/shop

go 1.23

require github.com/cenkalti/backoff/v5 v5.0.0
