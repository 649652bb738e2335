"""A payment event published in a loop that goes round when the stream
to the broker is lost: each lost stream may already have delivered it."""

import json
import time

import pika
from pika.exceptions import StreamLostError


def announce(params, payment):
    body = json.dumps(payment)
    for _ in range(3):
        try:
            conn = pika.BlockingConnection(params)
            conn.channel().basic_publish(exchange="payments", routing_key="done", body=body)
            break
        except StreamLostError:
            time.sleep(1)
