// The wait between attempts is a method of the same impl whose body sleeps
// (`self.retry_delay().await`): the loop does wait, its delay is written
// one call away (EspressoSystems/espresso-sequencer `L1Client`
// `get_finalized_block`, `03b0f46ae`; nineteenth pass, read unseen).
use std::time::Duration;

pub struct Options {
    pub retry_delay: Duration,
}

pub struct Chain {
    client: reqwest::Client,
    options: Options,
}

impl Chain {
    async fn retry_delay(&self) {
        tokio::time::sleep(self.options.retry_delay).await;
    }

    pub async fn finalized_block(&self, number: u64) -> String {
        loop {
            match self
                .client
                .get(format!("https://rpc.example/block/{number}"))
                .send()
                .await
            {
                Ok(resp) => match resp.text().await {
                    Ok(block) => return block,
                    Err(err) => {
                        tracing::warn!(number, "unreadable block: {err:#}");
                        self.retry_delay().await;
                        continue;
                    }
                },
                Err(err) => {
                    tracing::warn!(number, "failed to get block: {err:#}");
                    self.retry_delay().await;
                    continue;
                }
            }
        }
    }
}
