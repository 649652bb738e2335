// An embedded RocksDB opened again while the previous instance still holds
// its lock: local work on this host's disk, no server retried.
use rocksdb::{ColumnFamilyDescriptor, Options, DB};

fn open_state(path: &Path, opts: &Options, cfs: impl Fn() -> Vec<ColumnFamilyDescriptor>) -> Result<DB, Error> {
    let mut retry = 0;
    let db = loop {
        match DB::open_cf_descriptors(opts, path, cfs()) {
            Ok(db) => break db,
            _ if retry < 100 => {
                retry += 1;
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(e) => return Err(e.into()),
        }
    };
    Ok(db)
}
