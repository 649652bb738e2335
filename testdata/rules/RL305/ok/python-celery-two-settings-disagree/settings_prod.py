CELERY_BROKER_URL = "amqp://rabbit.internal//"
