# Billing's own Celery app on SQS, with its visibility timeout raised to
# 30 minutes: a setting of this app, not of the reports app beside it.
from celery import Celery

app = Celery("billing", broker="sqs://")
app.conf.broker_transport_options = {"region": "eu-west-1", "visibility_timeout": 1800}
