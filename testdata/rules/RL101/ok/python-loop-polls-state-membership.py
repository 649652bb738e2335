# A wait for a service it has just created: the loop sleeps first, asks
# for the service's status and leaves when the status is one of the final
# states (`in ("DONE", "FAILED", ..)`); `NotFoundError` means "not started
# yet". A poll at its own pace, not a retry of a failed request.
import time

from jobs_sdk import NotFoundError


def watch(service, interval: float = 5.0):
    service_status = None
    while True:
        time.sleep(interval)
        try:
            container = next(service.get_containers())
            service_status = container.service_status
            if service_status in ("DONE", "FAILED", "DELETED"):
                break
        except NotFoundError:
            print(f"not running yet, asking again in {interval}s")
    return service_status
