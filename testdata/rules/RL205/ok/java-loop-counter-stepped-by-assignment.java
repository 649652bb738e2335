package com.example.cluster;

import java.util.concurrent.atomic.AtomicInteger;

// Counters that are not `i++`: `times = times + 1` (alibaba/canal
// ClusterCanalConnector.connect) and an AtomicInteger whose `intValue()` is
// compared and whose `incrementAndGet()` counts (apache/incubator-seata
// SpringBeanServiceInvoker): both loops are bounded by the comparison.
public class ClusterConnector {
    private int retryTimes = 3;
    private int retryInterval = 5000;
    private final int maxAttempts;
    private Connector connector;

    public ClusterConnector(int maxAttempts) {
        this.maxAttempts = maxAttempts;
    }

    public void connect() throws ClientException {
        int times = 0;
        while (true) {
            try {
                connector.connect();
                break;
            } catch (Exception e) {
                connector.disconnect();
                times = times + 1;
                if (times >= retryTimes) {
                    throw new ClientException(e);
                } else {
                    try {
                        Thread.sleep(retryInterval);
                    } catch (InterruptedException e1) {
                        throw new ClientException(e1);
                    }
                }
            }
        }
    }

    public Object invoke(Service bean, Object[] args) throws Throwable {
        AtomicInteger retryCount = new AtomicInteger(0);
        while (true) {
            try {
                return bean.invoke(args);
            } catch (Throwable e) {
                if (retryCount.intValue() >= maxAttempts) {
                    throw e;
                }
                Thread.sleep(1000L * (retryCount.intValue() + 1));
                retryCount.incrementAndGet();
            }
        }
    }
}
