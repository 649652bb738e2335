// Not retries of one call at once: a failure drops the failed nodes from
// the list (`nodes.retain(..)`) and the next pass asks the others, giving
// up when none is left (failover); a connection taken from the pool that
// the peer had already closed is replaced once by a fresh one (a reused,
// stale connection is no server failure).
async fn download(&self, mut nodes: Vec<Node>, heights: &[u64]) -> Result<Vec<Cert>, Error> {
    loop {
        match fetch_from_any(&nodes, heights).await {
            Ok(certs) => return Ok(certs),
            Err(failed) => {
                tracing::warn!("download failed, retrying with the other validators");
                nodes.retain(|n| !failed.contains(&n.key));
                if nodes.is_empty() {
                    return Err(Error::NoValidatorLeft);
                }
                continue;
            }
        }
    }
}

async fn send_inner(&self, request: Request) -> Result<Response, NetError> {
    let mut reconnect_budget = 1u8;
    loop {
        let conn = self.pooled_connection().await?;
        match conn.handle.send(request.clone()).await {
            Ok(response) => return Ok(response),
            Err(error) => {
                conn.mark_failed();
                // retry once on a fresh connection
                if conn.reuse == Reuse::Reused && reconnect_budget > 0 && error.is_connection_closed() {
                    reconnect_budget -= 1;
                    continue;
                }
                return Err(error);
            }
        }
    }
}
