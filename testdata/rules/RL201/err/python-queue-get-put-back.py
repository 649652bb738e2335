# A worker that takes jobs from a queue.Queue and puts a job whose call
# failed back on it: a retry at once of the same job.
import queue

import requests

jobs = queue.Queue()


def worker():
    while True:
        job = jobs.get()
        try:
            requests.post("http://billing/charge", json=job, timeout=5)
        except requests.ConnectionError:
            jobs.put(job)
