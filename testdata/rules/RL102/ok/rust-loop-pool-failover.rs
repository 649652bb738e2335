// Failover over a pool: each round takes the next servers from the list
// (`servers.pop_front()`), a failed one is not asked again in that round,
// and the loop gives up once the list is used up; failed servers are put
// back after a short wait. Each pass asks another server.
async fn send(&self, request: Request) -> Result<Response, NetError> {
    let deadline = Instant::now() + self.timeout;
    let mut servers: VecDeque<_> = self.servers.iter().cloned().collect();
    let mut busy = Vec::new();
    let mut backoff = Duration::from_millis(20);
    let mut err = NetError::NoConnections;
    loop {
        if Instant::now() >= deadline {
            return Err(NetError::Timeout);
        }
        let mut batch = Vec::new();
        while !servers.is_empty() && batch.len() < 2 {
            if let Some(s) = servers.pop_front() {
                batch.push(s);
            }
        }
        if batch.is_empty() {
            if !busy.is_empty() && backoff < Duration::from_millis(300) {
                tokio::time::sleep(backoff).await;
                servers.extend(busy.drain(..));
                backoff *= 2;
                continue;
            }
            return Err(err);
        }
        for server in batch {
            match server.send(request.clone()).await {
                Ok(response) => return Ok(response),
                Err(e) => {
                    busy.push(server);
                    err = e;
                }
            }
        }
    }
}
