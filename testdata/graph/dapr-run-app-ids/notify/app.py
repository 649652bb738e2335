import requests

requests.post("http://localhost:3500/v1.0/invoke/orders/method/notify", json={}, timeout=5)
