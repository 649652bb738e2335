package com.example.balancer;

// A wait for a component of this process to be ready: its calls are the
// project's own types, and `IllegalStateException` says "not yet". No
// remote attempt is shown, so no retry of a request (a loop of this shape
// on a repository never reviewed, docs/loop-review.md fifteenth pass).
public class Executor {

    private final SamplerMonitor monitor;

    public Executor(SamplerMonitor monitor) {
        this.monitor = monitor;
    }

    void pauseSampling() throws InterruptedException {
        while (monitor.mode() != Mode.EXECUTING) {
            try {
                monitor.pause("before execution");
                monitor.setMode(Mode.EXECUTING);
                break;
            } catch (IllegalStateException e) {
                Thread.sleep(1000);
            }
        }
    }
}
