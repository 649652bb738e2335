import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "basket.settings")

app = Celery("basket")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.conf.update(task_time_limit=600, worker_prefetch_multiplier=1)
app.autodiscover_tasks()
