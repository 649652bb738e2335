# The countdown doubles with each retry (1, 2, 4, 8 ... s) and has no
# random part: every task that failed in the same outage is retried in the
# same second.
from celery import Celery

app = Celery("billing")


@app.task(bind=True, max_retries=5)
def charge(self, invoice_id):
    try:
        return gateway.charge(invoice_id)
    except ConnectionError as exc:
        raise self.retry(exc=exc, countdown=2 ** self.request.retries)
