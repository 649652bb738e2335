# `except Exception` catches everything, but the task retries only when the
# message names a transient failure; anything else is raised at once.
from celery import shared_task


@shared_task(bind=True, max_retries=3)
def process_document(self, document_id):
    try:
        extract(document_id)
    except Exception as exc:
        message = str(exc).lower()
        if any(k in message for k in ["rate limit", "connection", "timeout", "503"]):
            raise self.retry(exc=exc, countdown=60 * (self.request.retries + 1))
        raise
