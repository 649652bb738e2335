import httpx

# `retries` counts retries of failed connections: 6 attempts in all.
transport = httpx.HTTPTransport(retries=5)
client = httpx.Client(transport=transport, timeout=5)


def get_stock(sku):
    return client.get(f"http://inventory:8080/stock/{sku}")
