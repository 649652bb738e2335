import os
import requests

endpoint = os.getenv("DAPR_HTTP_ENDPOINT", "http://localhost:3500")
requests.post(endpoint + "/neworder", json={}, timeout=5, headers={"dapr-app-id": "nodeapp"})
