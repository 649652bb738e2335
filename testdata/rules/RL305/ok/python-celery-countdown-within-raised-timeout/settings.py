# The timeout raised above the longest countdown (two days).
CELERY_BROKER_URL = "redis://redis:6379/0"
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 172800}
