// A wait for a lock file another process of the same program holds
// (cloudflare/cloudflared d1df7985 `token/token.go` `acquireLockFile`):
// every call of the loop is the host's own work (functions of this file
// that create, read and remove the file, gopsutil's look-up of the
// owner in the host's process table, zerolog chains). No service is
// asked again: a backoff or jitter spares no one.
package token

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/pkg/errors"
	"github.com/rs/zerolog"
	"github.com/shirou/gopsutil/v4/process"
)

const lockRetryInterval = 500 * time.Millisecond
const lockTimeout = 5 * time.Minute

type lockContent struct {
	PID       int32 `json:"pid"`
	StartTime int64 `json:"start_time"`
}

func acquireLockFile(tokenPath string, log *zerolog.Logger) error {
	lockPath := tokenPath + ".lock"
	deadline := time.Now().Add(lockTimeout)
	for {
		if time.Now().After(deadline) {
			return fmt.Errorf("timed out waiting for lock file %s", lockPath)
		}
		err := tryCreateLockFile(lockPath)
		if err == nil {
			log.Debug().Str("path", lockPath).Msg("lock file acquired")
			return nil
		}
		if !os.IsExist(err) {
			return errors.Wrapf(err, "failed to create lock file %s", lockPath)
		}
		stale, checkErr := isLockFileStale(lockPath)
		if checkErr != nil {
			log.Debug().Err(checkErr).Str("path", lockPath).Msg("could not read lock file, retrying")
			time.Sleep(lockRetryInterval)
			continue
		}
		if !stale {
			if authURL := readAuthURL(tokenPath); authURL != "" {
				fmt.Fprintf(os.Stderr, "visit %s\n", authURL)
			}
			time.Sleep(lockRetryInterval)
			continue
		}
		if removeErr := os.Remove(lockPath); removeErr != nil && !os.IsNotExist(removeErr) {
			time.Sleep(lockRetryInterval)
			continue
		}
	}
}

func readAuthURL(tokenPath string) string {
	data, err := os.ReadFile(tokenPath + ".url")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(data))
}

func tryCreateLockFile(path string) (retErr error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0600)
	if err != nil {
		return err
	}
	defer func() {
		if retErr != nil {
			_ = f.Close()
			_ = os.Remove(path)
			return
		}
		retErr = f.Close()
	}()
	content, err := newSelfLockContent()
	if err != nil {
		return err
	}
	return json.NewEncoder(f).Encode(content)
}

func newSelfLockContent() (lockContent, error) {
	pid := int32(os.Getpid())
	p, err := process.NewProcess(pid)
	if err != nil {
		return lockContent{}, fmt.Errorf("failed to look up own process: %w", err)
	}
	ct, err := p.CreateTime()
	if err != nil {
		return lockContent{}, err
	}
	return lockContent{PID: pid, StartTime: ct}, nil
}

func isLockFileStale(path string) (bool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return false, err
	}
	var content lockContent
	if err := json.Unmarshal(data, &content); err != nil {
		return true, nil
	}
	p, err := process.NewProcess(content.PID)
	if err != nil {
		return true, nil
	}
	ct, err := p.CreateTime()
	if err != nil {
		return true, nil
	}
	return ct != content.StartTime, nil
}
