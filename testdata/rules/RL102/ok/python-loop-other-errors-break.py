import logging
import subprocess
import time

log = logging.getLogger(__name__)


# Only BlockingIOError is retried: any other error logs and leaves the
# loop (metaflow's sidecar start).
def start(cmdline):
    for _ in range(3):
        try:
            return subprocess.Popen(cmdline, stdin=subprocess.PIPE, bufsize=0)
        except BlockingIOError as e:
            log.warning("popen failed: %r", e)
            time.sleep(0.5)
        except Exception as e:
            log.error("unknown popen error: %r", e)
            break
