package com.example.jobs;

import java.io.IOException;

// A poll: the answer's state is asked (`status.isDone()`), and the loop waits
// between asks. Testing a method of the answer is not testing the call's
// success, so this is not a retry at once.
public class JobWaiter {

    public Status waitFor(JobApi api, String id) throws InterruptedException {
        while (true) {
            try {
                Status status = api.status(id);
                if (status.isDone()) {
                    return status;
                }
            } catch (IOException e) {
                // ask again
            }
            Thread.sleep(1000);
        }
    }
}
