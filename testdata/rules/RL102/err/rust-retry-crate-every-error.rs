// The `retry` crate with an operation returning a plain `Result`: its `Err`
// converts into `OperationResult::Retry` (retry 2.2.0 src/opresult.rs), so
// every error, a bad request as much as a timeout, goes round.
use retry::delay::{jitter, Fixed};
use retry::retry;

fn send(client: &Client, order: &Order) -> Result<Receipt, retry::Error<ApiError>> {
    retry(Fixed::from_millis(200).map(jitter).take(3), || client.post_order(order))
}
