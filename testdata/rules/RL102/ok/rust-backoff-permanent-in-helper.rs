// The `backoff` crate's operation sorts failures in a function of the same
// file: `handle_response` makes a 4xx `backoff::Error::Permanent` (not
// retried) and a 5xx transient. That is a retry predicate, though the
// closure handed to `retry` names only `transient`; also when the closure
// calls a function that calls it (`try_send` -> `handle_response`).
use std::time::Duration;

pub async fn send_request(client: &Client, url: &str) -> Result<Reply, ProxyError> {
    let policy = backoff::ExponentialBackoffBuilder::new()
        .with_max_elapsed_time(Some(Duration::from_secs(2)))
        .build();
    backoff::future::retry(policy, move || async move {
        let response = match client.get(url).send().await {
            Ok(response) => response,
            Err(e) => return Err(backoff::Error::transient(ProxyError::Send(e))),
        };
        handle_response(response).await
    })
    .await
}

async fn handle_response(response: Response) -> Result<Reply, backoff::Error<ProxyError>> {
    match response.status() {
        s if s.is_success() => Ok(response.json().await.map_err(ProxyError::Body)?),
        s if s.is_client_error() => Err(backoff::Error::Permanent(ProxyError::BadRequest(s))),
        s => Err(backoff::Error::transient(ProxyError::Remote(s))),
    }
}

pub async fn forward(client: &Client, url: &str) -> Result<Reply, ProxyError> {
    let policy = backoff::ExponentialBackoffBuilder::new()
        .with_max_elapsed_time(Some(Duration::from_secs(2)))
        .build();
    backoff::future::retry(policy, move || async move { try_send(client, url).await }).await
}

async fn try_send(client: &Client, url: &str) -> Result<Reply, backoff::Error<ProxyError>> {
    let response = client
        .get(url)
        .send()
        .await
        .map_err(|e| backoff::Error::transient(ProxyError::Send(e)))?;
    handle_response(response).await
}
