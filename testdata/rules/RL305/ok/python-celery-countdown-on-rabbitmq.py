# RabbitMQ has no visibility timeout: a long countdown is not delivered
# again while it waits.
from celery import Celery
import requests

app = Celery("reports", broker="amqp://guest@rabbit//")


@app.task(autoretry_for=(requests.ConnectionError,), max_retries=5, default_retry_delay=7200)
def build_report(report_id):
    requests.get(f"https://warehouse.internal/reports/{report_id}", timeout=30)
