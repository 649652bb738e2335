// `while let Err(e) = op().await { sleep }`: success ends the loop, and
// nothing else does: the upload is retried for as long as it fails.
use std::time::Duration;

async fn upload(store: &ObjectStore, path: &Path, data: Bytes) {
    while let Err(e) = store.put(path, data.clone()).await {
        warn!(%e, "upload failed, retrying");
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}
