package com.example.reuse;

import com.example.engine.EngineNode;
import com.example.engine.EngineReuseService;
import com.example.engine.ReuseRetryException;

// The loop runs while `!done`; the catch that goes round counts the
// failures and sets `done = true` once the count passes the cap: a bound,
// as a `break` under the same test would be.
class EngineAsker {
    private final EngineReuseService reuseService;

    EngineAsker(EngineReuseService reuseService) {
        this.reuseService = reuseService;
    }

    EngineNode reuse(String user) throws InterruptedException {
        boolean done = false;
        EngineNode node = null;
        int failures = 0;
        int maxRetry = 3;
        while (!done) {
            try {
                node = reuseService.reuse(user);
                done = true;
            } catch (ReuseRetryException e) {
                System.err.println("reuse failed for " + user + ": " + e);
                Thread.sleep(1000);
                failures += 1;
                if (failures > maxRetry) {
                    done = true;
                }
            } catch (Exception e) {
                done = true;
            }
        }
        return node;
    }
}
