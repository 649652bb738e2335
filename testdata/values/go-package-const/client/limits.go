package client

import "time"

// Limits of the payments client (synthetic).
const (
	maxRetries = 7
	waitMin    = 200 * time.Millisecond
)

var waitMax = 5 * time.Second
