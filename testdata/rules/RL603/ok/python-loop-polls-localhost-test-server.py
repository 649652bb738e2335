# A test server started on `localhost` and polled until it listens, inside
# a cancel scope: one caller, its own child process, no shared service.
import subprocess
import sys

import anyio
import httpx


async def serve(port):
    process = subprocess.Popen([sys.executable, "-m", "app", "--port", str(port)])
    url = f"http://localhost:{port}/api"
    async with httpx.AsyncClient() as client:
        with anyio.move_on_after(20):
            while True:
                try:
                    response = await client.get(url + "/health")
                except httpx.ConnectError:
                    pass
                else:
                    if response.status_code == 200:
                        break
                await anyio.sleep(0.1)
    return process
