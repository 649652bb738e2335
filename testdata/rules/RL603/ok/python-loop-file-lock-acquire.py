"""The index writer takes a file lock, trying a few times with a random
wait: `filelock.Timeout` is the lock's own timeout (another local writer
holds it), no service is called again."""

import random
import time

import filelock

ATTEMPTS = 4


class IndexWriter:
    def __init__(self, path, lock_timeout=10.0):
        self._lock = filelock.FileLock(str(path / ".index.lock"))
        self._lock_timeout = lock_timeout

    def __enter__(self):
        for attempt in range(ATTEMPTS):
            try:
                self._lock.acquire(timeout=self._lock_timeout)
                break
            except filelock.Timeout:
                if attempt == ATTEMPTS - 1:
                    raise
                time.sleep(random.uniform(0, min(4.0, 0.5 * 2**attempt)))
        return self
