package kube

import (
	"context"
	"time"
)

// A watch established again when its channel closes; `execute` returns
// false once the context is done, so the context ends the loop.
func watchEvents(ctx context.Context, open func() (Watch, error)) <-chan Event {
	ch := make(chan Event)
	execute := func() (bool, error) {
		w, err := open()
		if err != nil {
			return false, err
		}
		defer w.Stop()
		for {
			select {
			case ev, ok := <-w.ResultChan():
				if !ok {
					return true, nil
				}
				ch <- ev
			case <-ctx.Done():
				return false, nil
			}
		}
	}
	go func() {
		defer close(ch)
		for {
			again, err := execute()
			if err != nil {
				ch <- Event{Err: err}
			}
			if !again {
				return
			}
			time.Sleep(time.Second)
		}
	}()
	return ch
}
