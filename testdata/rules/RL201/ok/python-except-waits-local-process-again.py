import signal
import subprocess
import threading


def stop(proc: subprocess.Popen) -> None:
    # A local process asked to stop, then killed when it will not: the
    # second `wait` waits for the kill, it retries nothing remote.
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


def finish(worker: threading.Thread) -> None:
    try:
        worker.join(timeout=5)
    except RuntimeError:
        worker.join(timeout=5)
