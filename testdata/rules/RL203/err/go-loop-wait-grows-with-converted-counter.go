package push

import (
	"fmt"
	"os/exec"
	"time"
)

// The wait grows with the counter inside the conversion: 2 s, then 4 s
// (a linear backoff with no jitter), not a fixed 2 s.
func pushImage(image string) error {
	var err error
	for attempt := 1; attempt <= 3; attempt++ {
		err = exec.Command("docker", "push", image).Run()
		if err == nil {
			return nil
		}
		fmt.Printf("push attempt %d/3 failed: %v\n", attempt, err)
		if attempt < 3 {
			time.Sleep(time.Duration(attempt*2) * time.Second)
		}
	}
	return err
}
