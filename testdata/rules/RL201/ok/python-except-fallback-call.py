"""An `except` that calls something else (a fallback), or that calls the
same method with other arguments: no retry."""

import requests


def price(session, sku):
    try:
        return session.get("https://prices.internal/v2/" + sku, timeout=2).json()
    except requests.RequestException:
        return session.get("https://prices-cache.internal/v2/" + sku, timeout=2).json()


def stock(client, sku):
    try:
        return client.fetch_stock(sku)
    except KeyError:
        return client.default_stock()
