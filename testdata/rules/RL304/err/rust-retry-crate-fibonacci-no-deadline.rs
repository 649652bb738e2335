// The `retry` crate's Fibonacci delays are 1, 1, 2, 3, 5, .. ms (retry
// 2.2.0 src/delay/mod.rs: `curr` and `next` both start at the base):
// 26 retries wait F(28) - 1 = 317,810 ms in all, with no deadline over
// them (rustup's rename retry has this shape).
use retry::delay::Fibonacci;
use retry::{retry, OperationResult};

fn rename(src: &Path, dest: &Path) -> Result<(), retry::Error<io::Error>> {
    retry(Fibonacci::from_millis(1).take(26), || match fs::rename(src, dest) {
        Ok(()) => OperationResult::Ok(()),
        Err(e) if e.kind() == io::ErrorKind::PermissionDenied => OperationResult::Retry(e),
        Err(e) => OperationResult::Err(e),
    })
}
