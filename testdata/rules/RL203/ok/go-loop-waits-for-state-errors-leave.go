package reload

import (
	"fmt"
	"time"
)

type link struct {
	name       string
	connecting bool
}

type server struct{ links map[string]*link }

func compare(a, b *link) error {
	if a.name != b.name {
		return fmt.Errorf("link %q renamed", a.name)
	}
	return nil
}

// Applying a change waits while a link is still connecting: the loop
// goes round on that state, and every error ends the reload. No call
// that failed is tried again (not a retry of a remote call).
func (s *server) apply(want []*link) error {
	const maxAttempts = 20
outer:
	for failed := 0; failed < maxAttempts; failed++ {
		if failed > 0 {
			time.Sleep(50 * time.Millisecond)
		}
		for _, w := range want {
			cur, ok := s.links[w.name]
			if !ok {
				continue
			}
			err := compare(cur, w)
			if err != nil {
				return fmt.Errorf("cannot apply: %w", err)
			}
			if cur.connecting && failed < maxAttempts-1 {
				continue outer
			}
		}
		break
	}
	return nil
}
