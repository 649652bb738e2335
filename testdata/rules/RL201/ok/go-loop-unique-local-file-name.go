// A loop that picks a new random file name until `O_EXCL` creates a file
// nobody else has (open-policy-agent/gatekeeper dd8507eb97
// `pkg/export/disk/admission_file.go`): each pass tries another name on
// the host's own disk, nothing remote is asked again.
package disk

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// As in the real file, which also schedules rotations (the word that
// makes the reader parse it).
const defaultAdmissionRotationRetryInterval = 30 * time.Second

func createAdmissionFile(dir string) (*os.File, error) {
	var file *os.File
	for range 8 {
		name, err := admissionFileName()
		if err != nil {
			return nil, err
		}
		openPath := filepath.Join(dir, name+".open")
		file, err = os.OpenFile(openPath, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o660)
		if err == nil {
			break
		}
		if !os.IsExist(err) {
			return nil, fmt.Errorf("opening admission file: %w", err)
		}
	}
	if file == nil {
		return nil, fmt.Errorf("creating unique admission file")
	}
	return file, nil
}

func admissionFileName() (string, error) {
	random := make([]byte, 8)
	if _, err := rand.Read(random); err != nil {
		return "", fmt.Errorf("generating admission file ID: %w", err)
	}
	return "admission-" + time.Now().UTC().Format("20060102T150405") + "-" + hex.EncodeToString(random), nil
}
