"""A retry by recursion (freqtrade c9ae5e1e9 `freqtrade/exchange/common.py`
`@retrier` and `@retrier_async`): the wrapper calls itself again from its
`except` while a counter it decrements lasts, 5 attempts in all (4
retries). It waits only when the error is a `DDosProtection`; a network
error (the rest of `TemporaryError`) is sent again at once, 4 times."""
import asyncio
import logging
import time
from functools import wraps

logger = logging.getLogger(__name__)

API_RETRY_COUNT = 4


class TemporaryError(Exception):
    pass


class DDosProtection(TemporaryError):
    pass


def calculate_backoff(retrycount, max_retries):
    return (max_retries - retrycount) ** 2 + 1


def retrier_async(f):
    async def wrapper(*args, **kwargs):
        count = kwargs.pop("count", API_RETRY_COUNT)
        try:
            return await f(*args, **kwargs)
        except TemporaryError as ex:
            msg = f'{f.__name__}() returned exception: "{ex}". '
            if count > 0:
                count -= 1
                kwargs["count"] = count
                if isinstance(ex, DDosProtection):
                    await asyncio.sleep(calculate_backoff(count + 1, API_RETRY_COUNT))
                logger.warning(msg)
                return await wrapper(*args, **kwargs)
            else:
                logger.warning(msg + "Giving up.")
                raise ex

    return wrapper


def retrier(_func=None, *, retries=API_RETRY_COUNT):
    def decorator(f):
        @wraps(f)
        def wrapper(*args, **kwargs):
            count = kwargs.pop("count", retries)
            try:
                return f(*args, **kwargs)
            except TemporaryError as ex:
                if count > 0:
                    logger.warning(f"Retrying still for {count} times.")
                    count -= 1
                    kwargs.update({"count": count})
                    if isinstance(ex, DDosProtection):
                        time.sleep(calculate_backoff(count + 1, retries))
                    return wrapper(*args, **kwargs)
                else:
                    raise ex

        return wrapper

    if _func is None:
        return decorator
    return decorator(_func)
