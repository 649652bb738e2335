package com.example.raft;

// A follower's election timer (apache/ratis FollowerState.runImpl): each
// pass sleeps an election timeout, then tests its own state with a method
// of this class that only compares fields; leaving when that test holds is
// a state reached, not a call that worked. Not a retry.
class FollowerTimer {
    private volatile boolean isRunning = true;
    private volatile long lastRpcTimeMs;
    private final Server server;

    FollowerTimer(Server server) {
        this.server = server;
    }

    private boolean roleChangeChecking(long electionTimeoutMs) {
        return isRunning && System.currentTimeMillis() - lastRpcTimeMs >= electionTimeoutMs;
    }

    void runImpl() {
        while (isRunning) {
            long electionTimeoutMs = server.randomElectionTimeoutMs();
            try {
                Thread.sleep(electionTimeoutMs);
                synchronized (server) {
                    if (roleChangeChecking(electionTimeoutMs)) {
                        server.changeToCandidate();
                        break;
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Exception e) {
                System.err.println("caught an exception: " + e);
            }
        }
    }
}
