package config

import (
	"bufio"
	"strconv"
)

// Reads lines until one parses: nothing is sent, so going round at once on
// an error is not a retry of a call.
func FirstNumber(lines []string) (int, error) {
	for i := 0; i < len(lines); i++ {
		n, err := strconv.Atoi(lines[i])
		if err != nil {
			continue
		}
		return n, nil
	}
	return 0, bufio.ErrTooLong
}
