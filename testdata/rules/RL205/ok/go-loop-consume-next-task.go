package matching

import (
	"context"
	"errors"
)

// A consume loop: each pass polls another task from the queue and drops
// the one whose start cannot be recorded; the failed task is not tried
// again (not a retry), the next one is taken.
func (e *Engine) Poll(ctx context.Context, req *Request) (*Response, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		task, err := e.pollTask(ctx, req.Queue)
		if err != nil {
			if errors.Is(err, errNoTasks) {
				return emptyResponse, nil
			}
			return nil, err
		}
		resp, err := e.history.RecordStarted(ctx, task.ID())
		if err != nil {
			task.Finish(err)
			continue
		}
		task.Finish(nil)
		return resp, nil
	}
}
