package certs

import (
	"crypto/x509"
	"encoding/pem"
	"errors"
	"os"
	"path/filepath"
	"time"
)

// Check reads the certificate files and verifies the chain, in memory.
func Check(dir string, at time.Time) error {
	ca, err := os.ReadFile(filepath.Join(dir, "ca.crt"))
	if err != nil {
		return err
	}
	crt, err := os.ReadFile(filepath.Join(dir, "tls.crt"))
	if err != nil {
		return err
	}
	return verify(ca, crt, at)
}

func verify(ca, crt []byte, at time.Time) error {
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(ca) {
		return errors.New("bad CA")
	}
	b, _ := pem.Decode(crt)
	if b == nil {
		return errors.New("bad certificate")
	}
	c, err := x509.ParseCertificate(b.Bytes)
	if err != nil {
		return err
	}
	_, err = c.Verify(x509.VerifyOptions{Roots: pool, CurrentTime: at})
	return err
}
