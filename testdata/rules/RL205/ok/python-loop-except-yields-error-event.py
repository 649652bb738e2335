# An Airflow-style trigger: the generator polls a job's state and hands
# its one event out with `yield`; on an exception it yields an error event
# instead, and the triggerer that consumes it stops the trigger. The
# `except` hands the error to the consumer: nothing is tried again here.
import asyncio

from airflow.triggers.base import BaseTrigger, TriggerEvent


class JobStateTrigger(BaseTrigger):
    def __init__(self, job_id, poll_interval=4.0):
        super().__init__()
        self.job_id = job_id
        self.poll_interval = poll_interval

    async def run(self):
        hook = self._get_async_hook()
        while True:
            try:
                state = await hook.get_job_status(job_id=self.job_id)
                if state == "success":
                    yield TriggerEvent({"status": "success"})
                    return
                elif state == "error":
                    yield TriggerEvent({"status": "error"})
                    return
                else:
                    self.log.info("job %s still running", self.job_id)
                    await asyncio.sleep(self.poll_interval)
            except Exception as e:
                self.log.exception("exception while checking the job")
                yield TriggerEvent({"status": "error", "message": str(e)})
