"""A publisher that, when the broker dropped the connection, reconnects
and publishes once more, at once: a retry written without a loop."""

import json

import pika
from pika.exceptions import ConnectionClosed, StreamLostError


class Publisher:
    def __init__(self, host):
        self._params = pika.ConnectionParameters(host=host)
        self._connect()

    def _connect(self):
        self._conn = pika.BlockingConnection(self._params)
        self._channel = self._conn.channel()

    def publish(self, order):
        body = json.dumps(order)
        try:
            self._channel.basic_publish(exchange="shop", routing_key="orders", body=body)
        except (ConnectionClosed, StreamLostError):
            self._connect()
            self._channel.basic_publish(exchange="shop", routing_key="orders", body=body)
