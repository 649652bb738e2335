// A crate of test support (its directory is named for tests): its waits
// serve tests, not service code.
use std::time::Duration;

pub fn must_wait_leader(cluster: &Cluster) -> u64 {
    for _ in 0..100 {
        match cluster.leader() {
            Ok(id) => return id,
            Err(e) => {
                log(e);
                std::thread::sleep(Duration::from_millis(100));
            }
        }
    }
    panic!("no leader")
}
