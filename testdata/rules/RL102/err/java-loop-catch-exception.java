package com.example.sync;

public class SyncJob {

    // catch (Exception e) retries bugs and bad requests as well.
    public Result push(Api api, Batch batch) throws InterruptedException {
        for (int attempt = 0; attempt < 3; attempt++) {
            try {
                return api.push(batch);
            } catch (Exception e) {
                Thread.sleep(1000L << attempt);
            }
        }
        return Result.FAILED;
    }
}
