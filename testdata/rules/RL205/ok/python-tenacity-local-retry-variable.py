# ironic-python-agent: a local variable named `retry` holds a tenacity
# decorator; `retry(fn)()` applies it, it is not a bare `@retry`.
import tenacity


def wait_for_disk(check, max_retries, interval):
    retry = tenacity.retry(
        retry=tenacity.retry_if_result(lambda r: not r),
        stop=tenacity.stop_after_attempt(max_retries),
        wait=tenacity.wait_fixed(interval),
        reraise=True)
    return retry(check)()
