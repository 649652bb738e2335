# An SQS broker whose visibility timeout is set to 30 minutes, and a task
# that retries every hour: each retry is delivered again while it waits.
from celery import Celery
import requests

app = Celery("reports", broker="sqs://")
app.conf.broker_transport_options = {"region": "eu-west-1", "visibility_timeout": 1800}


@app.task(autoretry_for=(requests.ConnectionError,), max_retries=5, default_retry_delay=3600)
def build_report(report_id):
    requests.get(f"https://warehouse.internal/reports/{report_id}", timeout=30)
