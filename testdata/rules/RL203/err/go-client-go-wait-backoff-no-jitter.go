package controller

import (
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/util/retry"
)

// A wait.Backoff without Jitter: wait.Backoff adds none (apimachinery
// backoff.go: jitter only when Jitter > 0), so every controller replica
// retries on the same beat.
var statusBackoff = wait.Backoff{
	Steps:    5,
	Duration: 200 * time.Millisecond,
	Factor:   2.0,
	Cap:      5 * time.Second,
}

func (r *Reconciler) updateStatus(obj *Object) error {
	return retry.OnError(statusBackoff, isTransient, func() error {
		return r.client.UpdateStatus(obj)
	})
}
