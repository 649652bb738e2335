package controller

import (
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/util/retry"
)

// Jitter 0.5: each wait is the step plus up to half of it at random.
var statusBackoff = wait.Backoff{
	Steps:    5,
	Duration: 200 * time.Millisecond,
	Factor:   2.0,
	Jitter:   0.5,
	Cap:      5 * time.Second,
}

func (r *Reconciler) updateStatus(obj *Object) error {
	return retry.OnError(statusBackoff, isTransient, func() error {
		return r.client.UpdateStatus(obj)
	})
}
