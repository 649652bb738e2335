import os

DEBUG = False
ORDER_SYNC_RETRIES = int(os.environ.get("ORDER_SYNC_RETRIES", 6))
