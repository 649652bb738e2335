import os

import grpc
import requests


def notify_orders(order_id):
    return requests.post('http://' + os.environ['ORDERS_ADDR'] + '/notified/' + order_id, timeout=2)
