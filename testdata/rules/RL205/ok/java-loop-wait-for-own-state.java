package com.example.shuffle;

import java.util.Map;
import java.util.Set;

// Waiting for other threads to fill in a state (apache/uniffle
// RMRssShuffle.waitForEvents): the condition is a method of this class that
// only compares fields. A word like `Attempt` in its name does not make
// the loop a retry of an operation.
public class EventWaiter {
    private final Map<Integer, Set<Long>> partitionToSuccessTasks;
    private final int numInputs;

    public EventWaiter(Map<Integer, Set<Long>> partitionToSuccessTasks, int numInputs) {
        this.partitionToSuccessTasks = partitionToSuccessTasks;
        this.numInputs = numInputs;
    }

    public void waitForEvents() throws InterruptedException {
        while (!allInputTaskAttemptDone()) {
            Thread.sleep(100);
        }
    }

    private boolean allInputTaskAttemptDone() {
        return partitionToSuccessTasks.values().stream().mapToInt(s -> s.size()).sum() == numInputs;
    }
}
