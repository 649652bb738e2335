import os

import requests

# Compose sets USER_HOST (to `accounts`): it wins over the default.
USER = os.getenv('USER_HOST', 'user')
# Nothing sets CART_HOST: the default is called.
CART = os.environ.get('CART_HOST', 'cart')


def pay(user_id):
    requests.get('http://{}:8080/check/{}'.format(USER, user_id), timeout=2)
    requests.delete('http://{}:8080/cart/{}'.format(CART, user_id), timeout=2)
