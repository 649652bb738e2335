import json

import pika


class Publisher:
    def __init__(self):
        self._params = pika.connection.ConnectionParameters(host='rabbitmq')
        self._conn = None
        self._channel = None

    def _connect(self):
        self._conn = pika.BlockingConnection(self._params)
        self._channel = self._conn.channel()

    def _publish(self, msg):
        self._channel.basic_publish(exchange='shop', routing_key='orders', body=json.dumps(msg))

    def publish(self, msg):
        if self._channel is None:
            self._connect()
        try:
            self._publish(msg)
        except pika.exceptions.ConnectionClosed:
            self._connect()
            self._publish(msg)
