from datetime import datetime, timedelta

from celery import Celery

app = Celery("banzai", broker="redis://redis:6379/0")


@app.task
def stack_calibrations(min_date, max_date, instrument_id, frame_type):
    pass


def schedule_calibration_stacking(site, runtime_context, instrument):
    # The stacking runs after the night's last calibration block: often
    # more than three hours after it is scheduled.
    eta = datetime.utcnow() + timedelta(hours=3, minutes=30)
    stack_calibrations.apply_async(
        args=(runtime_context.min_date, runtime_context.max_date, instrument.id, "BIAS"),
        eta=eta,
    )
