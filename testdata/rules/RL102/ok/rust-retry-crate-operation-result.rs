// The `retry` crate: the operation sorts its failures, `OperationResult::Err`
// gives up at once and `OperationResult::Retry` goes round (retry 2.2.0
// src/lib.rs `retry_with_index`), here in a function of the same file.
use retry::delay::{jitter, Fixed};
use retry::{retry, retry_with_index, OperationResult};

fn classify(r: Result<Receipt, ApiError>) -> OperationResult<Receipt, ApiError> {
    match r {
        Ok(v) => OperationResult::Ok(v),
        Err(e) if e.is_transient() => OperationResult::Retry(e),
        Err(e) => OperationResult::Err(e),
    }
}

fn send(client: &Client, order: &Order) -> Result<Receipt, retry::Error<ApiError>> {
    retry(Fixed::from_millis(200).map(jitter).take(3), || classify(client.post_order(order)))
}

fn send_indexed(client: &Client, order: &Order) -> Result<Receipt, retry::Error<ApiError>> {
    retry_with_index(Fixed::from_millis(200).map(jitter).take(3), |_n| {
        match client.post_order(order) {
            Ok(v) => OperationResult::Ok(v),
            Err(e) if e.is_timeout() => OperationResult::Retry(e),
            Err(e) => OperationResult::Err(e),
        }
    })
}
