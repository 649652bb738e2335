// Failures sorted by the error's code: a comparison of `err.code()` with
// one code that leaves (`|| err.code() != Code::Unknown`) is a retry
// predicate, not a bound (only `Unknown` goes round).
async fn execute_do_get(&mut self, ticket: Vec<u8>) -> Result<Stream, Error> {
    let retries = self.io_retries;
    for i in 0..retries {
        if i > 0 {
            tokio::time::sleep(Duration::from_millis(self.retry_wait_ms)).await;
        }
        let result = self.flight.do_get(Request::new(ticket.clone())).await;
        match result {
            Ok(res) => return Ok(res.into_inner()),
            Err(ref err) => {
                if i == retries - 1 || err.code() != Code::Unknown {
                    return Err(Error::Grpc(format!("{err:?}")));
                }
                continue;
            }
        }
    }
    unreachable!("the last attempt returns")
}
