# max_retries counts retries: 10 retries are 11 attempts of the task.
from celery import Celery

app = Celery("billing")


@app.task(bind=True, max_retries=10, default_retry_delay=5)
def charge(self, invoice_id):
    try:
        return gateway.charge(invoice_id)
    except ConnectionError as exc:
        raise self.retry(exc=exc)
