package com.example.store;

// Retries with no `try`: the operation's result says whether it worked,
// and a failing result goes round at once.
public class Flusher {

    private final int retryTimes = 3;

    public FlushResult flush(RegionClient region) {
        FlushResult result = null;
        for (int i = 0; i < retryTimes; i++) {
            result = region.flush();
            if (result != FlushResult.CANNOT_FLUSH) {
                return result;
            }
        }
        return result;
    }

    public boolean close(NameNode nameNode, String file) {
        int retries = 5;
        while (retries-- > 0) {
            if (nameNode.complete(file)) {
                return true;
            }
        }
        return false;
    }
}
