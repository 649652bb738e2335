import time

import requests


class VercelError(Exception):
    pass


def get(session, url, max_retries=3):
    # Shape of prowler's Vercel client: 429 goes round; raise_for_status()
    # raises an HTTPError that the first except clause turns into an error
    # that leaves, so a 404 is not retried (only connection errors are).
    for attempt in range(max_retries + 1):
        try:
            response = session.get(url, timeout=30)
            if response.status_code == 429:
                if attempt < max_retries:
                    time.sleep(int(response.headers.get("Retry-After", 5)))
                    continue
                raise VercelError("rate limited")
            response.raise_for_status()
            return response.json()
        except VercelError:
            raise
        except requests.exceptions.HTTPError as error:
            raise VercelError(str(error))
        except requests.exceptions.RequestException:
            if attempt < max_retries:
                time.sleep(2**attempt)
                continue
            raise
