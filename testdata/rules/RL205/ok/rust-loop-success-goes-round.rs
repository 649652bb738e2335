// Loops whose call's success goes round again are no retries of that call:
// a periodic service (it sleeps to the next tick first, and leaves only
// once the work is all done), a poll for a time (success leaves only in
// the `else` of a clock test), a supervisor whose `Ok(false)` reconnects,
// a reconciler whose successful fix goes round to look at the state again,
// and a periodic checker that logs a "status" word on success
// (sigp/lighthouse, infinyon/fluvio, restatedev/restate).
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tokio::time::sleep;

async fn verification_service(chain: Arc<Chain>) {
    loop {
        match chain.clock.duration_to_next_epoch() {
            Some(duration) => {
                sleep(duration).await;
                if !chain.transition_complete() {
                    continue;
                }
                match load_pending_blocks(&chain) {
                    Ok(blocks) => {
                        if blocks.is_empty() {
                            if chain.finalized_block().is_some_and(|b| b.execution_status.is_enabled()) {
                                break;
                            }
                        }
                        if let Err(e) = validate_blocks(&chain, blocks).await {
                            tracing::warn!(?e, "error while validating");
                        }
                    }
                    Err(e) => tracing::error!(?e, "error loading blocks"),
                }
            }
            None => sleep(chain.clock.slot_duration()).await,
        }
    }
}

async fn poll_until_genesis(nodes: &Nodes, genesis_time: Duration) -> Result<(), String> {
    loop {
        match nodes.first_success(|node| async move { node.staking().await }).await {
            Ok(staking) => {
                let now = SystemTime::now()
                    .duration_since(UNIX_EPOCH)
                    .map_err(|e| e.to_string())?;
                if now < genesis_time {
                    tracing::info!(staking, "waiting for genesis");
                } else {
                    break Ok(());
                }
            }
            Err(e) => tracing::error!(%e, "error polling the node"),
        }
        sleep(Duration::from_secs(12)).await;
    }
}

impl FollowerController {
    async fn dispatch_loop(mut self) {
        loop {
            if self.group.is_end() {
                break;
            }
            let socket = self.connect_to_leader().await;
            match self.sync_with_leader(socket).await {
                Ok(terminate) => {
                    if terminate {
                        break;
                    }
                }
                Err(err) => tracing::error!("err: {}", err),
            }
            sleep(Duration::from_secs(5)).await;
        }
    }
}

async fn on_sealed(inner: &Inner, sealed: u32) -> Result<Segment, Error> {
    let mut retry_iter = inner.retry_policy().into_iter();
    let mut pause = retry_iter.next().expect("retries are infinite");
    loop {
        let segment = inner.tail_segment().await?;
        if segment.is_open() && segment.index() > sealed {
            return Ok(segment);
        }
        if let Err(err) = inner.admin().seal_and_extend(sealed).await {
            tracing::info!(%err, "could not reconfigure, another node may have done it");
            sleep(pause).await;
            pause = retry_iter.next().expect("retries are infinite");
        } else {
            tracing::info!("reconfiguration complete");
            continue;
        }
    }
}

async fn periodic_tail_checker(loglet: Weak<Loglet>, every: Duration) -> Result<(), Error> {
    loop {
        let Some(loglet) = loglet.upgrade() else {
            return Ok(());
        };
        if loglet.is_sealed() {
            return Ok(());
        }
        match loglet.find_tail().await {
            Ok(tail) => {
                tracing::trace!(offset = %tail.offset(), "determined the tail status of the loglet");
            }
            Err(Error::Shutdown(_)) => return Ok(()),
            Err(Error::Other(err)) => {
                tracing::trace!(%err, "could not determine the tail, will retry in the next period");
            }
        }
        sleep(every).await;
    }
}
