// The attempt is a synchronous function of the file that opens the node's
// own RocksDB backup directory (through another function of the file) and
// reads its timestamps: local work, no server retried, however long it
// goes round.
use rocksdb::backup::{BackupEngine, BackupEngineOptions};
use rocksdb::Env;

impl Scheduler {
    async fn run(config: Config) -> Result<(), Error> {
        let dir = config.backup_dir.as_path();
        let mut next = loop {
            match Self::first_backup_time(dir, config.db_backup_interval) {
                Ok(t) => break t,
                Err(e) => {
                    tracing::error!(?e, "failed to read the last backup time, retrying");
                    tokio::time::sleep(Duration::from_secs(600)).await;
                }
            }
        };
        Self::schedule(&mut next).await
    }

    fn first_backup_time(dir: &Path, db_backup_interval: Duration) -> Result<Instant, Error> {
        let last = Self::latest_backup_timestamp(dir)?;
        let now = Utc::now().timestamp();
        let next = last.map_or(now, |t| t + db_backup_interval.as_secs() as i64);
        Ok(Instant::now() + Duration::from_secs((next - now).max(0) as u64))
    }

    fn latest_backup_timestamp(dir: &Path) -> Result<Option<i64>, Error> {
        let engine = Self::open_engine(dir)?;
        Ok(engine.get_backup_info().iter().map(|b| b.timestamp).max())
    }

    fn open_engine(dir: &Path) -> Result<BackupEngine, Error> {
        let env = Env::new()?;
        let opts = BackupEngineOptions::new(dir)?;
        Ok(BackupEngine::open(&opts, &env)?)
    }
}
