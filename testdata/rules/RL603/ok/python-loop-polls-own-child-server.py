# A server the program starts itself, on this machine, polled until it
# answers: the address is a `@property` that names `127.0.0.1`. Its retries
# load no service that others share (no budget is needed); the test of
# `status_code == 200` still sends every other status round.
import subprocess
import sys
import time

import httpx


class LocalServer:
    def __init__(self, port):
        self.port = port
        self.process = None

    @property
    def address(self):
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_url(self):
        return f"{self.address}/api"

    def start(self, timeout=10):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "http.server", str(self.port)]
        )
        with httpx.Client() as client:
            waited = 0.0
            while waited < timeout:
                try:
                    response = client.get(f"{self.api_url}/health")
                except httpx.ConnectError:
                    pass
                else:
                    if response.status_code == 200:
                        break
                time.sleep(0.1)
                waited += 0.1
