//! Reading one file the walk found, safely.

use std::path::Path;

/// Read a file that the walk found, at most `limit` bytes (`None` when it
/// is longer now). The last path component is opened without following a
/// symbolic link and without blocking, and anything but a regular file
/// (a link or a FIFO swapped in after the walk) is refused, so a scan can
/// neither read outside its roots through a late link nor hang on a pipe.
/// The bytes of a regular file, or `Err(size)` when it is larger than
/// `limit` (by its size when opened, or by what could be read: a file
/// that grows while it is read is cut at the limit and refused).
pub(super) fn read_regular_file(path: &Path, limit: u64) -> std::io::Result<Result<Vec<u8>, u64>> {
    use std::io::Read as _;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(|e| {
        #[cfg(unix)]
        if e.raw_os_error() == Some(libc::ELOOP) {
            return std::io::Error::other("it became a symbolic link: not followed");
        }
        e
    })?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(std::io::Error::other("not a regular file any more"));
    }
    if meta.len() > limit {
        return Ok(Err(meta.len()));
    }
    let mut data = Vec::with_capacity(meta.len() as usize);
    file.take(limit.saturating_add(1)).read_to_end(&mut data)?;
    if data.len() as u64 > limit {
        return Ok(Err(data.len() as u64));
    }
    Ok(Ok(data))
}
