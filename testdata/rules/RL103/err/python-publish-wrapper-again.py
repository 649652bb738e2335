"""The channel's publish wrapped in the class's own `_publish`, called
once more after the stream to the broker was lost: a publish retried."""

import json

import pika
from pika.exceptions import StreamLostError


class Notifier:
    def __init__(self, host):
        self._params = pika.ConnectionParameters(host=host)
        self._reopen()

    def _reopen(self):
        self._conn = pika.BlockingConnection(self._params)
        self._channel = self._conn.channel()

    def _publish(self, event):
        self._channel.basic_publish(exchange="", routing_key="events", body=json.dumps(event))

    def notify(self, event):
        try:
            self._publish(event)
        except StreamLostError:
            self._reopen()
            self._publish(event)
