// Local work behind a project's file-system trait: methods named `fs_*`
// (`sys.fs_rename`, `sys.fs_file_try_lock`) touch this machine's disk,
// whatever type carries them; retrying them hammers no server (deno's
// npm cache rename and install lock).
use std::time::Duration;

fn rename_with_retries(sys: &impl FsSys, from: &Path, to: &Path) -> std::io::Result<()> {
    let mut count = 0;
    loop {
        match sys.fs_rename(from, to) {
            Ok(()) => return Ok(()),
            Err(err) => {
                count += 1;
                if count > 10 {
                    return Err(err);
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        }
    }
}

async fn lock(sys: &impl FsSys, file: &FsFile, poll_path: &Path) -> Option<Guard> {
    let mut error_count = 0;
    while error_count < 10 {
        match file.fs_file_try_lock(LockMode::Exclusive) {
            Ok(_) => return Some(Guard::new()),
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(20)).await;
                match sys.fs_metadata(poll_path).and_then(|m| m.modified()) {
                    Ok(updated) => match sys.sys_time_now().duration_since(updated) {
                        Ok(age) if age.as_millis() > 10_000 => return None,
                        Ok(_) => error_count = 0,
                        Err(_) => error_count += 1,
                    },
                    Err(_) => error_count += 1,
                }
            }
        }
    }
    None
}
