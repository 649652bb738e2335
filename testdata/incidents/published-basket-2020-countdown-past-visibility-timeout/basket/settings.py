import os

DEBUG = os.environ.get("DEBUG", "") == "1"
CELERY_BROKER_URL = "redis://redis:6379/1"
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
