import os
import signal
import time

import requests


class SpotMonitor:
    POLL_INTERVAL = 5

    # Shape of metaflow's spot monitor: a 404 means "no notice yet"; the
    # loop polls until the notice appears, it does not retry a failure.
    def _monitor_loop(self):
        while self.is_alive:
            try:
                response = requests.get(self.METADATA_URL, timeout=1)
                if response.status_code == 200:
                    os.kill(os.getppid(), signal.SIGTERM)
                    break
            except requests.exceptions.RequestException:
                pass
            time.sleep(self.POLL_INTERVAL)
