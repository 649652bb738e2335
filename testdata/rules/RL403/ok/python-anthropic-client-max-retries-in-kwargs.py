from anthropic import AsyncAnthropic


def make_client(api_key, headers=None):
    client_kw = {"api_key": api_key}
    if headers:
        client_kw["default_headers"] = headers
    # The retries are the caller's: the client makes one attempt.
    client_kw["max_retries"] = 0
    return AsyncAnthropic(**client_kw)
