# A drain loop that moves a failed item to another list (a dead letter):
# nothing is tried again.
import requests


def drain(outbox, dead):
    while outbox:
        activity = outbox.popleft()
        try:
            requests.post("http://inbox.example/deliver", json=activity, timeout=5)
        except requests.RequestException:
            dead.append(activity)
