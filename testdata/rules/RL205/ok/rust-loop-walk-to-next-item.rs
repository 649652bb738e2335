// A walk, not a retry: a pass that found nothing usable moves on to the
// next number or offset (`number += 1; continue`) and asks for that one;
// the retry of each lookup is the helper's. What the walk re-reads is
// handed to the call, and never compared with a limit as attempts are.
async fn next_present_block(client: &Client, from: u64) -> Result<BlockRef, Error> {
    let mut number = from;
    loop {
        let res = fetch_with_retry(client, number).await;
        if is_empty_block(&res) {
            number += 1;
            continue;
        }
        return match res {
            Ok(Some(hash)) => Ok(BlockRef::new(hash, number)),
            Ok(None) => Err(Error::NoHash(number)),
            Err(e) => Err(e),
        };
    }
}

async fn first_readable(log: &Log, start: u64) -> Result<Record, Error> {
    let mut offset = start;
    loop {
        match log.read_record(offset).await {
            Ok(rec) => return Ok(rec),
            Err(Error::Corrupt { len }) => {
                tracing::warn!(offset, "skipping a corrupt record, retrying at the next one");
                offset += len;
                continue;
            }
            Err(e) => return Err(e),
        }
    }
}
