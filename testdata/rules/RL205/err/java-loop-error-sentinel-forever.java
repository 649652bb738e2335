// A call that answers a failure with a sentinel value, re-called until the
// answer is not it (`size = segment.getSize(); if (size !=
// GET_FILE_SIZE_ERROR) return size;`): a retry of the call, with no limit
// on the attempts or the time (rocketmq's FlatAppendFile.getFileCorrectSize
// has this shape: -1 means the RPC failed).
class SegmentSizes {
    static final long GET_FILE_SIZE_ERROR = -1L;

    long correctSize(RemoteFileSegment segment) {
        while (true) {
            long fileSize = segment.getSize();
            if (fileSize != GET_FILE_SIZE_ERROR) {
                return fileSize;
            } else {
                log.warn("get file size failed, path={}", segment.getPath());
                try {
                    TimeUnit.MILLISECONDS.sleep(50);
                } catch (InterruptedException e) {
                    log.warn("interrupted", e);
                }
            }
        }
    }
}
