import logging
import time

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 4
MAX_WAIT_SECONDS = 8


def poll_query_log(connection, sql):
    # The wait doubles before each sleep (2 s, 4 s, 8 s), with no jitter.
    wait_time = 1
    result = None
    for attempt in range(MAX_ATTEMPTS):
        try:
            result = connection.execute(query=sql)
        except ConnectionError:
            logger.warning("query log poll failed", exc_info=True)
            result = None
        if result:
            return result
        if attempt + 1 < MAX_ATTEMPTS:
            wait_time = min(wait_time * 2, MAX_WAIT_SECONDS)
            time.sleep(wait_time)
    return result
