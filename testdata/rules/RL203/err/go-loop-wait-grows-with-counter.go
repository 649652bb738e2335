// A wait that grows with the loop's counter (GoogleCloudPlatform/
// microservices-demo 34ffea9, every Go service's profiler start): 10 s,
// 20 s, 30 s, no jitter; a linear backoff, not a fixed `10s`. From a
// counter starting at 0 (0 s, 5 s, 10 s) it grows the same way: not
// "retries at once".
package main

import (
	"log"
	"time"

	"cloud.google.com/go/profiler"
)

func initProfiling(service, version string) {
	for i := 1; i <= 3; i++ {
		if err := profiler.Start(profiler.Config{Service: service, ServiceVersion: version}); err != nil {
			log.Printf("failed to start profiler: %+v", err)
		} else {
			return
		}
		d := time.Second * 10 * time.Duration(i)
		time.Sleep(d)
	}
}

func initTracing(service string) {
	for i := 0; i < 3; i++ {
		if err := profiler.Start(profiler.Config{Service: service}); err != nil {
			log.Printf("failed to start: %+v", err)
		} else {
			return
		}
		time.Sleep(time.Duration(i) * 5 * time.Second)
	}
}
