package com.example.states;

// A result compared with the state the caller waits for (`ACTIVE`): a
// wait for a state, counted and paced, not a failed call tried again.
class WaitActive {
    enum Status { CREATING, ACTIVE }

    interface Table {
        Status status();
    }

    interface Tables {
        Table describe(String name);
    }

    static final int POLL_MAX_ATTEMPTS = 60;

    void waitForActive(Tables tables, String name) {
        for (int i = 0; i < POLL_MAX_ATTEMPTS; i++) {
            final Status status = tables.describe(name).status();
            if (status == Status.ACTIVE) {
                return;
            }
            try {
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new IllegalStateException(name + " is not active");
    }
}
