package com.example.sync;

import java.util.concurrent.TimeUnit;

// A sleep helper taking the unit first (apache/shenyu HttpSyncDataService:
// `ThreadUtils.sleep(TimeUnit.SECONDS, 5)`): a fixed `5s`.
public class LongPolling {
    public void poll(SyncClient client, String server) {
        for (int time = 1; time <= 3; time++) {
            try {
                client.longPoll(server);
                break;
            } catch (Exception e) {
                ThreadUtils.sleep(TimeUnit.SECONDS, 5);
            }
        }
    }
}
