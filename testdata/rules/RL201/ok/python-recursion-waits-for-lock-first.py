# A file lock taken by creating the lock file: when another holder won
# the race (`FileExistsError`), the function is called again, and its first
# step waits for that holder to let go (`wait_for_lock`, bounded by
# `acquire_timeout`). A turn in a lock race, not an immediate retry.
import time
from pathlib import Path


class FileLocks:
    def __init__(self, directory: Path):
        self.directory = directory

    def is_locked(self, key: str) -> bool:
        return (self.directory / f"{key}.lock").exists()

    def wait_for_lock(self, key: str, timeout: float | None = None) -> bool:
        start = time.monotonic()
        while self.is_locked(key):
            if timeout is not None and time.monotonic() - start > timeout:
                return False
            time.sleep(0.1)
        return True

    def acquire_lock(self, key: str, holder: str, acquire_timeout: float | None = None) -> bool:
        path = self.directory / f"{key}.lock"
        if self.is_locked(key):
            if not self.wait_for_lock(key, acquire_timeout):
                return False
        try:
            path.touch(exist_ok=False)
        except FileExistsError:
            return self.acquire_lock(key, holder, acquire_timeout)
        path.write_text(holder)
        return True
