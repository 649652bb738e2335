import celery
from celery import shared_task


class BackoffTask(celery.Task):
    """Tasks built on this class retry only a lost connection or a
    timeout."""

    autoretry_for = (ConnectionError, TimeoutError)
    retry_kwargs = {"max_retries": 5}
    retry_backoff = True


@shared_task(base=BackoffTask, name="payments.tasks.update_payment_status")
def update_payment_status(payment_id):
    raise ValueError(payment_id)
