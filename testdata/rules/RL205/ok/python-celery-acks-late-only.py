# Late acknowledgement alone: a task whose worker dies is acknowledged
# (and failed with WorkerLostError), not delivered again.
broker_url = "redis://redis:6379/0"
task_acks_late = True
task_reject_on_worker_lost = False
