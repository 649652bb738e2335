package com.example.node;

import java.io.IOException;

public class Registrar {

    // The process ends after the last attempt: a bound, not a forever loop.
    public void register(Api api) throws InterruptedException {
        int retries = 5;
        while (true) {
            try {
                api.register();
                return;
            } catch (IOException e) {
                if (--retries == 0) {
                    System.exit(67);
                }
                Thread.sleep(1000);
            }
        }
    }

    public void join(Api api) throws InterruptedException {
        int retries = 5;
        while (true) {
            try {
                api.join();
                return;
            } catch (IOException e) {
                if (--retries == 0) {
                    ExitUtil.terminate(1, e);
                }
                Thread.sleep(1000);
            }
        }
    }

    public void start(Api api) throws InterruptedException {
        int retries = 5;
        while (true) {
            try {
                api.start();
                return;
            } catch (IOException e) {
                if (--retries == 0) {
                    Runtime.getRuntime().halt(1);
                }
                Thread.sleep(1000);
            }
        }
    }

    // The cap is in the else branch.
    public void heartbeat(Api api) throws IOException, InterruptedException {
        int retries = 3;
        while (true) {
            try {
                api.heartbeat();
                return;
            } catch (IOException e) {
                if (retries > 0) {
                    retries--;
                } else {
                    throw e;
                }
                Thread.sleep(1000);
            }
        }
    }
}
