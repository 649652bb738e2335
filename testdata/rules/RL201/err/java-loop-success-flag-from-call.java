package com.example.files;

import java.io.IOException;

// The success flag is the call's result: `false` or an exception goes
// round again, at once.
public class Committer {
    public boolean commit(HdfsTempFile file, String target) {
        boolean success = false;
        for (int retries = 0; !success && retries < 3; retries++) {
            try {
                success = file.moveAndClose(target);
            } catch (IOException e) {
                log.warn("could not move {} to {}", file, target, e);
            }
        }
        return success;
    }
}
