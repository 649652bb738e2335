# freelabz/secator PR #1199 (June 2026): with task_acks_late and
# task_reject_on_worker_lost, a task whose worker is killed (an OOM kill,
# a node eviction) is redelivered by the broker to a fresh worker; a task
# that OOMs on every run loops for ever and its workflow never completes.
broker_url = "redis://redis:6379/0"
task_acks_late = True
task_reject_on_worker_lost = True
