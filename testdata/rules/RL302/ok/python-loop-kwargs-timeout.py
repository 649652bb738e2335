# ironic-python-agent `_download_with_proxy`: the timeout is in the
# `**kwargs` the call passes on.
import time

import requests


def download(url, image_download_attributes):
    session = requests.Session()
    for attempt in range(3):
        try:
            return session.get(url, **image_download_attributes)
        except requests.RequestException:
            time.sleep(5)
    return None
