from celery import Celery

app = Celery("shop")
app.config_from_object("django.conf:settings", namespace="CELERY")


@app.task
def send_digest(user_id):
    pass


def schedule(user_id):
    send_digest.apply_async(args=(user_id,), countdown=6 * 3600)
