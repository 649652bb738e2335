"""An order event published again after the broker's stream was lost:
the first `basic_publish` may have reached the queue before the socket
dropped, and without publisher confirms or a message id the consumer
gets the order twice."""

import json

import pika
from pika.exceptions import StreamLostError


class OrderEvents:
    def __init__(self, host):
        self._params = pika.ConnectionParameters(host=host)
        self._open()

    def _open(self):
        self._conn = pika.BlockingConnection(self._params)
        self._channel = self._conn.channel()

    def placed(self, order):
        body = json.dumps(order)
        try:
            self._channel.basic_publish(exchange="orders", routing_key="placed", body=body)
        except StreamLostError:
            self._open()
            self._channel.basic_publish(exchange="orders", routing_key="placed", body=body)
