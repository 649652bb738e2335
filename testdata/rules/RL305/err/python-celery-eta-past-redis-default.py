# A task scheduled three and a half hours ahead on a Redis broker left at
# its one-hour visibility timeout: the worker holding it is taken for dead
# and the task is delivered again, several times before it is due.
from datetime import datetime, timedelta

from celery import Celery

app = Celery("reports", broker="redis://redis:6379/0")


@app.task
def nightly_report(day):
    pass


def schedule(day):
    eta = datetime.utcnow() + timedelta(hours=3, minutes=30)
    nightly_report.apply_async(args=(day,), eta=eta)
