package scanner

import (
	"context"
	"log"
	"time"
)

// A heartbeat while a background job runs: the only error tested is the
// context's, and it ends the loop; nothing failed goes round.
func watchJob(ctx context.Context, job *Job, hb Heartbeater) error {
	job.Start()
	for job.Alive() {
		hb.Record(ctx)
		if ctx.Err() != nil {
			log.Printf("context error, stopping the job: %v", ctx.Err())
			job.Stop()
			return ctx.Err()
		}
		time.Sleep(10 * time.Second)
	}
	return nil
}
