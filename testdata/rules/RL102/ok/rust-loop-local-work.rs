// Loops whose every attempt is local work: nothing they re-attempt can
// leave the process, so no server is retried and no predicate, delay with
// jitter or limit is due. A directory the kernel keeps busy until its
// tasks leave, a file renamed into place while another process holds it,
// a local helper program run again.
use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

pub fn remove_group_dir(dir: &Path) -> std::io::Result<()> {
    let mut pause = Duration::from_millis(20);
    loop {
        if fs::remove_dir(dir).is_ok() {
            return Ok(());
        }
        std::thread::sleep(pause);
        pause *= 2;
    }
}

pub async fn move_into_place(from: &Path, to: &Path) -> std::io::Result<()> {
    loop {
        match tokio::fs::rename(from, to).await {
            Ok(()) => return Ok(()),
            Err(e) => {
                log::warn!("rename failed: {e}");
                tokio::time::sleep(Duration::from_millis(250)).await;
            }
        }
    }
}

pub fn run_indexer(args: &[String]) -> bool {
    for _attempt in 0..20 {
        let outcome = Command::new("local-indexer").args(args).status();
        if let Ok(status) = outcome {
            if status.success() {
                return true;
            }
        }
        std::thread::sleep(Duration::from_secs(1));
    }
    false
}
