package com.example.bootstrap;

import java.sql.SQLException;

// The loop runs until the reset works; the catch asks the retry timer how
// many retries are left (`retryTimer.getRemainingRetriesNum() <= 0`) and
// leaves when none are, then waits the timer's back-off: the timer bounds
// the loop (linkedin/databus `BootstrapApplierThread.reset`, seventeenth
// pass).
class Applier {
    private final BackoffTimer retryTimer;
    private final BootstrapDao dao;

    Applier(BackoffTimer retryTimer, BootstrapDao dao) {
        this.retryTimer = retryTimer;
        this.dao = dao;
    }

    boolean reset() {
        boolean success = false;
        retryTimer.reset();
        while (!success) {
            try {
                dao.getConnection().executeDummyQuery();
                success = true;
            } catch (SQLException e) {
                System.err.println("reset failed: " + e);
                if (retryTimer.getRemainingRetriesNum() <= 0) {
                    break;
                }
                retryTimer.backoffAndSleep();
            }
        }
        return success;
    }
}
