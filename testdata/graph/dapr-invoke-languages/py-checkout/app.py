import os

import requests

sidecar = os.getenv("DAPR_HTTP_ENDPOINT", "http://localhost:3500")
headers = {"content-type": "application/json", "dapr-app-id": "orders"}

requests.post(sidecar + "/orders", json={"id": 1}, headers=headers)
# The invocation URL names the app too.
requests.get(sidecar + "/v1.0/invoke/inventory/method/stock/1")
