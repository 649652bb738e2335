// Waits that grow where the loop is written, no jitter (goharbor/harbor
// c50c7ddd6e): a backoff doubled in the `for` clause's update (`i,
// backoff = i+1, backoff*2`: 2 s, 4 s, 8 s, not a fixed `4s`), and a
// wait of the counter plus a constant (`count+4` seconds: 5 s, 6 s, 7 s
// ..., a linear backoff, not a fixed `5s`).
package transfer

import (
	"errors"
	"time"
)

const chunkRetryCnt = 5
const pingRedisMaxTimes = 10

var errStopped = errors.New("stopped")

func (t *transfer) copyChunkWithRetry(digest string) error {
	var err error
	for i, backoff := 1, 2*time.Second; i <= chunkRetryCnt; i, backoff = i+1, backoff*2 {
		if err = t.copyBlobByChunk(digest); err == nil {
			return nil
		}
		if i == chunkRetryCnt || err == errStopped {
			break
		}
		time.Sleep(backoff)
	}
	return err
}

func (w *basicWorker) ping() error {
	var err error
	for count := 1; count <= pingRedisMaxTimes; count++ {
		if _, err = w.conn.Do("ping"); err == nil {
			return nil
		}
		time.Sleep(time.Duration(count+4) * time.Second)
	}
	return err
}
