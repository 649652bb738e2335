# The Django settings module: a Redis broker, no transport options, so
# kombu's one-hour visibility timeout applies.
CELERY_BROKER_URL = "redis://redis:6379/0"
