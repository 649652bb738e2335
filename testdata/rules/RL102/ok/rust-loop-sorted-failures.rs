// Failures sorted by the loop, each in a way other than an `Err(Kind)`
// arm: every one of these loops retries some failures and gives up on
// others, so none retries "every error".

use std::time::Duration;

enum RetryAction {
    Fail(Status),
    RetryImmediately(Status),
    RetryWithBackoff(Status),
}

// The error is sorted into an action first; the action decides.
async fn with_channel(pool: &Pool, retries: usize) -> Result<Body, Status> {
    let mut retries_left = retries;
    loop {
        let err = match pool.request().await {
            Ok(body) => return Ok(body),
            Err(err) => err,
        };
        let action = match err.code() {
            Code::Unavailable => RetryAction::RetryWithBackoff(err),
            Code::Internal => RetryAction::RetryImmediately(err),
            _ => RetryAction::Fail(err),
        };
        let (wait, status) = match action {
            RetryAction::Fail(s) => return Err(s),
            RetryAction::RetryImmediately(s) => (Duration::ZERO, s),
            RetryAction::RetryWithBackoff(s) => (Duration::from_millis(100), s),
        };
        if retries_left == 0 {
            return Err(status);
        }
        retries_left = retries_left.saturating_sub(1);
        tokio::time::sleep(wait).await;
    }
}

// The failure says whether to wait or give up: `into_duration` returns an
// error for a failure that must not be retried.
async fn rerank(client: &Client, max: u32) -> Result<Vec<u32>, Error> {
    for attempt in 0..max {
        let wait = match client.rerank().await {
            Ok(v) => return Ok(v),
            Err(retry) => match retry.into_duration(attempt) {
                Ok(d) => d,
                Err(error) => return Err(error),
            },
        };
        tokio::time::sleep(wait).await;
    }
    Err(Error::GaveUp)
}

async fn proxy(client: &Client, tries: u32) -> Result<Response, Error> {
    for i in 0..tries {
        match client.send().await {
            Ok(response) => return Ok(response),
            Err(retry) => {
                let duration = retry.into_duration(i)?;
                tokio::time::sleep(duration).await;
            }
        }
    }
    Err(Error::GaveUp)
}

// The value of the failure arm is handed on with `?`.
fn embed(client: &Client) -> Result<Vec<f32>, Error> {
    for attempt in 0..3 {
        let wait = match client.embed() {
            Ok(v) => return Ok(v),
            Err(retry) => retry.into_duration(attempt),
        }?;
        std::thread::sleep(wait);
    }
    Err(Error::GaveUp)
}

// Some `Err` arms go round, the others leave.
async fn send(producer: &Producer, mut record: Record) -> Result<(), KafkaError> {
    loop {
        match producer.send_result(record) {
            Ok(fut) => return fut.await,
            Err((KafkaError::MessageProduction(Code::QueueFull), original)) => {
                record = original;
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err((err @ KafkaError::MessageProduction(Code::InvalidMessage), _)) => return Err(err),
            Err(_) => return Ok(()),
        }
    }
}
