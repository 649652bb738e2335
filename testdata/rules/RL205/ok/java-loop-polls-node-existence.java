package com.example.apps;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.zookeeper.data.Stat;

// A status watch: each pass re-reads the application's report and asks
// whether its instance node exists yet (`zkClient.exists(path).get(..)`,
// null while absent), leaving once the application ends or the node is
// there. An existence check answering null is a poll for the node's
// creation, not a call that failed (apache/twill `YarnTwillController`,
// sixteenth pass).
public class StatusPoller implements Runnable {

    private final ProcessController controller;
    private final ZKClient zkClient;
    private final String instancePath;
    private boolean watchInstanceNode;

    StatusPoller(ProcessController controller, ZKClient zkClient, String instancePath) {
        this.controller = controller;
        this.zkClient = zkClient;
        this.instancePath = instancePath;
    }

    @Override
    public void run() {
        Report report = controller.getReport();
        try {
            while (!Thread.currentThread().isInterrupted()) {
                if (report.isFinished()) {
                    break;
                }
                try {
                    Stat stat = zkClient.exists(instancePath).get(5, TimeUnit.SECONDS);
                    if (stat != null) {
                        watchInstanceNode = true;
                        break;
                    }
                } catch (ExecutionException e) {
                    // ask again on the next pass
                } catch (TimeoutException e) {
                    // ask again on the next pass
                }
                TimeUnit.SECONDS.sleep(1);
                report = controller.getReport();
            }
        } catch (InterruptedException e) {
            // stop polling
        }
    }
}
