// Loops that handle errors and sleep but re-attempt nothing: heartbeats,
// watches, polling, pagination, lock waits, optimistic concurrency.
use std::time::Duration;

async fn heartbeat_loop(client: &Client, cancel: Cancel) -> Result<(), Error> {
    loop {
        tokio::select! {
            _ = tokio::time::sleep(Duration::from_secs(10)) => {
                let resp = client.beat().await?;
                if !resp.success {
                    return Err(Error::Internal("heartbeat is from another node"));
                }
            }
            _ = cancel.cancelled() => return Ok(()),
        }
    }
}

async fn watch_labels(client: &Client) {
    'outer: loop {
        let mut stream = client.watch().await;
        while let Some(event) = stream.next().await {
            match event {
                Ok(ev) => apply(ev),
                Err(Error::Compacted(_)) => continue 'outer,
                Err(e) => {
                    log(e);
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    continue 'outer;
                }
            }
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

async fn background_polling(cache: &Cache, tenants: Vec<Tenant>) {
    loop {
        for tenant in &tenants {
            match load(tenant).await {
                Err(e) => log(e),
                Ok(data) => cache.insert(tenant, data),
            }
        }
        tokio::time::sleep(Duration::from_secs(30)).await;
    }
}

async fn list_all(client: &Client) -> Result<Vec<Item>, Error> {
    let mut out = Vec::new();
    let mut token = None;
    loop {
        let page = match client.list(token.clone()).await {
            Ok(p) => p,
            Err(e) => return Err(e),
        };
        out.extend(page.items);
        match page.next {
            Some(t) => token = Some(t),
            None => break,
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    Ok(out)
}

async fn acquire_lock(catalog: &Catalog) -> Result<(), Error> {
    loop {
        let revs = catalog.list_revisions().await?;
        if revs.first() == Some(&MY_REV) {
            return Ok(());
        }
        if revs.is_empty() {
            return Err(Error::Expired);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn update_committed(store: &Store) -> Result<(), Error> {
    loop {
        let (version, mut value) = store.get().await?;
        value.bump();
        match store.compare_and_put(version, value).await {
            Ok(true) => return Ok(()),
            Ok(false) => tokio::time::sleep(Duration::from_millis(1)).await,
            Err(e) => return Err(e),
        }
    }
}

async fn upload_parts(client: &Client, data: &[u8]) -> Result<(), Error> {
    for part_number in 1u16.. {
        let chunk = next_chunk(data, part_number);
        if chunk.is_empty() {
            return Ok(());
        }
        if let Err(e) = client.upload_part(part_number, chunk).await {
            return Err(e);
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    Ok(())
}

async fn heartbeat_until_shutdown(api: &Api, shutdown: &AtomicBool) {
    let mut seq = 0;
    while !shutdown.load(Ordering::Relaxed) {
        tokio::time::sleep(Duration::from_secs(30)).await;
        match api.heartbeat(seq).await {
            Ok(next) => seq = next,
            Err(e) => log(e),
        }
    }
}

async fn work_loop(worker: &Worker, guard: &Guard) {
    loop {
        if guard.exited() {
            break;
        }
        match worker.transform().await {
            Ok(()) => tokio::time::sleep(Duration::from_secs(1)).await,
            Err(e) => {
                if let Ok(valid) = guard.check().await {
                    if !valid {
                        break;
                    }
                }
                tokio::time::sleep(Duration::from_secs(5)).await;
            }
        }
    }
}
