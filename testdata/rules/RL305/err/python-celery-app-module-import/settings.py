CELERY_BROKER_URL = "redis://redis:6379/0"
