import logging
import subprocess
import time

log = logging.getLogger(__name__)


# Any error is logged and tried again, a bad command line included.
def start(cmdline):
    for _ in range(3):
        try:
            return subprocess.Popen(cmdline, stdin=subprocess.PIPE, bufsize=0)
        except BlockingIOError as e:
            log.warning("popen failed: %r", e)
            time.sleep(0.5)
        except Exception as e:
            log.error("unknown popen error: %r", e)
            time.sleep(0.5)
