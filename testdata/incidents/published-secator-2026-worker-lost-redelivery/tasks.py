from celery import Celery
import subprocess

app = Celery("secator")
app.config_from_object("celeryconfig")


@app.task(bind=True)
def run_command(self, cmd):
    return subprocess.run(cmd, capture_output=True, timeout=3600).stdout
