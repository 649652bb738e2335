// A local process whose program is a network client (`rsync` to another
// host) reaches a server: running it again is a retry of a remote
// operation, and its fixed delay is due.
use std::process::Command;
use std::time::Duration;

pub fn push_backup(dir: &str) -> bool {
    for _ in 0..3 {
        let ok = Command::new("rsync").arg(dir).arg("backup:/srv").status();
        if let Ok(s) = ok {
            if s.success() {
                return true;
            }
        }
        std::thread::sleep(Duration::from_secs(5));
    }
    false
}
