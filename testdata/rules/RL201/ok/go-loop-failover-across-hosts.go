package scaler

import (
	"context"
	"fmt"
	"net/http"
	"strings"
)

// Fail-over across brokers: each pass asks the next host of the list,
// starting at the one that answered last; every host is asked once.
func (s *Scaler) metrics(ctx context.Context) (Metrics, error) {
	var problems []string
	for i := 0; i < len(s.hosts); i++ {
		at := (s.current + i) % len(s.hosts)
		url := s.hosts[at]
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return Metrics{}, err
		}
		m, err := s.read(req)
		if err != nil {
			problems = append(problems, fmt.Sprintf("host %d: %v", at, err))
			continue
		}
		s.current = at
		return m, nil
	}
	return Metrics{}, fmt.Errorf("no broker answered: %s", strings.Join(problems, "; "))
}
