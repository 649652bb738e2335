import requests

requests.post("http://localhost:3500/orders", json={}, headers={"dapr-app-id": "orders"})
