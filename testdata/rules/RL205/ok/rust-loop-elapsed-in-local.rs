// The elapsed time is read into a local at the top of each pass and the
// loop leaves once it reaches the request's timeout (each branch of the
// `if let .. else` under the test returns): a time cap.
async fn call(client: &Client, url: &Url, req: Request, request_timeout: Duration) -> Result<Response, Error> {
    let start = Instant::now();
    let mut last_error = None;
    loop {
        let elapsed = Instant::now().duration_since(start);
        if elapsed >= request_timeout {
            if let Some(e) = last_error.take() {
                return Err(Error::TimeoutAfter(e));
            } else {
                return Err(Error::RequestTimeout);
            }
        }
        match client.post(url.clone()).json(&req).send().await {
            Ok(res) => return Ok(res),
            Err(e) if e.is_builder() => return Err(e.into()),
            Err(e) => {
                last_error = Some(e);
                tokio::time::sleep(Duration::from_millis(100 + rand::random::<u64>() % 100)).await;
            }
        }
    }
}
