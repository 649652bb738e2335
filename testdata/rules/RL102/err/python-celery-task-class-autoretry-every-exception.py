import celery
from celery import shared_task


class BackoffTask(celery.Task):
    """Every task built on this class retries on any exception: a bug
    (the ValueError below) is retried 5 times before it is reported."""

    autoretry_for = (Exception,)
    retry_kwargs = {"max_retries": 5}
    retry_backoff = True


@shared_task(base=BackoffTask, name="payments.tasks.update_payment_status")
def update_payment_status(payment_id):
    raise ValueError(payment_id)
