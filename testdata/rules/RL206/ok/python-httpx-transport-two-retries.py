import httpx

transport = httpx.HTTPTransport(retries=2)
client = httpx.Client(transport=transport, timeout=5)


def get_stock(sku):
    return client.get(f"http://inventory:8080/stock/{sku}")
