# Sent to run in ten minutes, well within the Redis broker's one-hour
# visibility timeout; an eta read from the database is not judged.
from celery import Celery

app = Celery("reports", broker="redis://redis:6379/0")


@app.task
def reminder(user_id):
    pass


def schedule(user_id, due_at):
    reminder.apply_async(args=(user_id,), countdown=600)
    reminder.apply_async(args=(user_id,), eta=due_at)
