// A wait for local capacity, not a retry: the only failure that goes
// round is a full local queue or too few free slots (`QueueFull`,
// `NotEnoughSlots`), and nothing remote is asked on that path; a
// pass waits for the queue to drain or for a slot. Other errors leave.
async fn enqueue(producer: &mut Producer, mut rec: Record<'_>) {
    loop {
        match producer.send_result(rec) {
            Ok(delivery) => {
                producer.pending.push(delivery);
                return;
            }
            Err((ProduceError::Code(ErrorCode::QueueFull), back)) => {
                rec = back;
            }
            Err((e, _)) => panic!("could not produce: {e:?}"),
        }
        // back off and retry
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn schedule(scheduler: &Scheduler, req: StartReq, limit: Duration) -> Result<(), Error> {
    let start = Instant::now();
    loop {
        match scheduler.start_workers(req.clone()).await {
            Ok(_) => break,
            Err(ScheduleError::NotEnoughSlots { needed }) => {
                tracing::warn!(needed, "not enough slots, retrying");
                if start.elapsed() > limit {
                    return Err(Error::NoSlots);
                }
            }
            Err(e) => return Err(e.into()),
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    Ok(())
}
