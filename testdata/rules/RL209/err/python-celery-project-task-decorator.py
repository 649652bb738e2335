"""Tasks made with the project's own decorator (a thin wrapper around the
Celery app's `task`, defined in `shop/tasks.py`): this module never imports
Celery itself."""

from requests.exceptions import RequestException

from shop import tasks
from shop.notify import helpdesk_client


@tasks.task(
    bind=True,
    ignore_result=True,
    acks_late=True,
    autoretry_for=(RequestException,),
    retry_backoff=True,
)
def report_complaint(task, request, complaint_id):
    helpdesk = helpdesk_client(request)
    helpdesk.open_ticket(complaint_id)
