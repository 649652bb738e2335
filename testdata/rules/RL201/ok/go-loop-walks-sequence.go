package journal

import "errors"

var errGap = errors.New("gap")

type segment struct{ first, last uint64 }

func (s *segment) read(seq uint64) ([]byte, error) {
	if seq < s.first || seq > s.last {
		return nil, errGap
	}
	return []byte{byte(seq)}, nil
}

// Each pass reads the next entry: a failed read skips to the one after,
// it is not the same read tried again (no retry).
func (s *segment) firstMatch(from uint64, want byte) (uint64, error) {
	for seq := from; seq <= s.last; seq++ {
		entry, err := s.read(seq)
		if err != nil {
			continue
		}
		if entry[0] == want {
			return seq, nil
		}
	}
	return 0, errGap
}

// A search that steps past holes: the offset grows before each new read.
func (s *segment) nearest(mid uint64) ([]byte, error) {
	off := uint64(0)
	for {
		entry, err := s.read(mid + off)
		if err != nil {
			off++
			if mid+off <= s.last {
				continue
			}
			return nil, err
		}
		return entry, nil
	}
}
