# A Celery settings module: late acknowledgement and
# task_reject_on_worker_lost put a task whose worker process died (an OOM
# kill, a node eviction) back on the queue, with no limit: a task that
# kills its worker on every run is delivered for ever (Celery's docs:
# "enabling this can cause message loops").
broker_url = "redis://redis:6379/0"
task_acks_late = True
task_reject_on_worker_lost = True
