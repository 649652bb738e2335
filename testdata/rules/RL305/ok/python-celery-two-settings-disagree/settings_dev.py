# Two settings modules side by side that name different brokers: which
# one the workers load is not in the files, so no redelivery timeout is
# taken.
CELERY_BROKER_URL = "redis://localhost:6379/0"
