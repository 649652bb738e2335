// 22 Fibonacci delays from 1 ms wait F(24) - 1 = 46,367 ms in all: under
// a minute. (Read as growth by x1.618 the same delays came to 64 s.)
use retry::delay::Fibonacci;
use retry::{retry, OperationResult};

fn rename(src: &Path, dest: &Path) -> Result<(), retry::Error<io::Error>> {
    retry(Fibonacci::from_millis(1).take(22), || match fs::rename(src, dest) {
        Ok(()) => OperationResult::Ok(()),
        Err(e) if e.kind() == io::ErrorKind::PermissionDenied => OperationResult::Retry(e),
        Err(e) => OperationResult::Err(e),
    })
}
