// A supervisor, not a retry: the child process started in the `Ok` arm is
// handed to a call that runs it until its output ends, and the loop starts
// it again unless that call says to stop (`if !self.run_stream(..).await {
// return; }`). Success goes round again; only shutdown ends the loop.
use std::time::Duration;

const BACKOFF_DURATION: Duration = Duration::from_secs(1);

impl JournaldSource {
    async fn run(mut self, checkpointer: Checkpointer, mut shutdown: ShutdownSignal) {
        loop {
            if shutdown.is_triggered() {
                break;
            }
            let cursor = checkpointer.lock().await.cursor.clone();
            match self.starter.start(cursor.as_deref()) {
                Ok((stdout_stream, stderr_stream, running)) => {
                    if !self
                        .run_stream(stdout_stream, stderr_stream, shutdown.clone())
                        .await
                    {
                        return;
                    }
                    drop(running);
                }
                Err(error) => {
                    emit!(StartJournalctlError { error });
                }
            }
            tokio::select! {
                _ = &mut shutdown => break,
                _ = tokio::time::sleep(BACKOFF_DURATION) => (),
            }
        }
    }
}
