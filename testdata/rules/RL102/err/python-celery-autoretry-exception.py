from celery import Celery

app = Celery("billing")


# Every exception is retried: a bad invoice id is retried 3 more times.
@app.task(bind=True, autoretry_for=(Exception,), retry_backoff=True)
def send_invoice(self, invoice_id):
    return invoice_id
