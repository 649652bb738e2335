# A drain loop that puts a failed item back at the end of the queue it
# drains: the same delivery comes round again with no wait, and nothing
# ever drops it (the shape of Vultron #2302's outbox).
import requests


def drain(outbox):
    while outbox:
        activity = outbox.popleft()
        try:
            requests.post("http://inbox.example/deliver", json=activity, timeout=5)
        except requests.RequestException:
            outbox.append(activity)
