// A fixed wait in a constant declared after the function (risingwave
// observer_manager.rs `re_subscribe`): every failure waits 100 ms, no
// jitter.
use std::time::Duration;

impl<S: ObserverState> ObserverManager<S> {
    async fn re_subscribe(&mut self) {
        loop {
            match self.client.subscribe(S::subscribe_type()).await {
                Ok(rx) => {
                    self.rx = rx;
                    match self.wait_init_notification().await {
                        Err(err) => {
                            tracing::warn!("receives meta's notification err: {err}");
                            tokio::time::sleep(RE_SUBSCRIBE_RETRY_INTERVAL).await;
                            continue;
                        }
                        _ => {
                            break;
                        }
                    }
                }
                Err(_) => {
                    tokio::time::sleep(RE_SUBSCRIBE_RETRY_INTERVAL).await;
                }
            }
        }
    }
}

const RE_SUBSCRIBE_RETRY_INTERVAL: Duration = Duration::from_millis(100);
