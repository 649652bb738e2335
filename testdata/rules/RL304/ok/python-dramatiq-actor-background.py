# A Dramatiq actor runs on a worker after the sender handed the message
# over: nobody waits on its retries, so their total time is no caller's
# timeout to exceed.
import dramatiq
import requests


@dramatiq.actor(max_retries=3)
def crawl(url):
    requests.get(url, timeout=5).raise_for_status()
