package application

import (
	"strconv"
	"time"

	log "github.com/sirupsen/logrus"
)

// Waits until the informer's local cache has seen a write: a read of the
// process's own cache every 20 ms for 2 s, nothing sent out.
func (s *Server) waitCached(obj *Object) {
	deadline := time.Now().Add(2 * time.Second)
	want, err := strconv.Atoi(obj.ResourceVersion)
	if err != nil {
		return
	}
	for {
		if cached, err := s.objLister.Objects(obj.Namespace).Get(obj.Name); err == nil {
			have, err := strconv.Atoi(cached.ResourceVersion)
			if err == nil && have >= want {
				return
			}
		}
		if time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	log.Warn("cache not synced in time")
}
