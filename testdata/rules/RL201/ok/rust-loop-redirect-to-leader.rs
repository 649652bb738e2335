// A request sent again at once because the failure named the current
// leader (restatedev/restate's metadata client: `has_known_leader(&status)
// && attempt < MAX_RETRY_ATTEMPTS`): the next pass goes to another node,
// so it is failover, not the same call repeated; no delay is due.
const MAX_RETRY_ATTEMPTS: usize = 3;

impl MetadataClient {
    pub async fn get(&self, key: String) -> Result<Option<Value>, ReadError> {
        let mut attempt = 0;
        loop {
            let mut client = self.current_client().ok_or(ReadError::NoServer)?;
            return match client.get(GetRequest { key: key.clone() }).await {
                Ok(response) => response.into_inner().try_into().map_err(ReadError::terminal),
                Err(status) => {
                    if self.has_known_leader(&status) && attempt < MAX_RETRY_ATTEMPTS {
                        attempt += 1;
                        continue;
                    }
                    Err(to_read_error(status))
                }
            };
        }
    }
}

// A stale cached node: the failure drops it from the cache and the next
// pass connects to a freshly resolved one, once (neondatabase/neon's
// proxy, `attempt < 2` in a let-chain).
pub async fn connect_and_authenticate(ctx: &Ctx, info: &Info) -> Result<Node, Error> {
    let mut attempt = 0;
    loop {
        attempt += 1;
        let mut node = connect_to_compute(ctx, info).await?;
        match info.authenticate(ctx, &mut node).await {
            Ok(()) => return Ok(node),
            Err(e) => {
                if attempt < 2
                    && let Backend::ControlPlane(cplane) = &info.backend
                    && e.should_retry_wake_compute()
                {
                    cplane.caches.node_info.invalidate(&info.cache_key());
                    continue;
                }
                return Err(e)?;
            }
        }
    }
}
