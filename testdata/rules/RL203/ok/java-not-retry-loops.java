package com.example.loops;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;

// Loops in the shapes real Java code uses that are NOT retries: walking a
// collection, polling for a state, worker loops, spin waits. None of them
// may be read as a retry policy.
public class NotRetryLoops {

    private volatile boolean running = true;

    // 1. Each item once, pausing between items (rate limiting).
    void sendAll(List<Event> events, Api api) throws InterruptedException {
        for (Event e : events) {
            try {
                api.send(e);
            } catch (IOException ex) {
                log("skipping " + e, ex);
                continue;
            }
            Thread.sleep(100);
        }
    }

    // 2. Indexed walk over a list.
    void indexed(List<String> names, Api api) throws InterruptedException {
        for (int i = 0; i < names.size(); i++) {
            try {
                api.touch(names.get(i));
            } catch (IOException ex) {
                log("failed", ex);
            }
            TimeUnit.MILLISECONDS.sleep(50);
        }
    }

    // 3. A worker taking tasks from a queue until stopped.
    void worker(BlockingQueue<Runnable> queue) {
        while (running) {
            try {
                Runnable task = queue.take();
                task.run();
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException ex) {
                log("task failed", ex);
            }
        }
    }

    // 4. Polling a job until it is done (success is a state, not a call).
    Status awaitDone(Api api, String id) throws InterruptedException {
        while (true) {
            try {
                Status s = api.status(id);
                if (s.done()) {
                    return s;
                }
            } catch (IOException ex) {
                log("status failed", ex);
            }
            Thread.sleep(1000);
        }
    }

    // 5. A periodic refresher.
    void refresher(Api api) {
        while (!Thread.currentThread().isInterrupted()) {
            try {
                Thread.sleep(30_000);
                api.refresh();
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            } catch (Exception ex) {
                log("refresh failed", ex);
            }
        }
    }

    // 6. Iterator walk.
    void drain(Iterator<String> it, Api api) {
        while (it.hasNext()) {
            try {
                api.touch(it.next());
            } catch (IOException ex) {
                log("failed", ex);
            }
        }
    }

    // 7. Reading lines until the end.
    int countNumbers(BufferedReader reader) throws IOException {
        int n = 0;
        String line;
        while ((line = reader.readLine()) != null) {
            try {
                Integer.parseInt(line.trim());
                n++;
            } catch (NumberFormatException ex) {
                // not a number
            }
        }
        return n;
    }

    // 8. Copying a stream.
    void copy(InputStream in, OutputStream out) throws IOException {
        byte[] buf = new byte[8192];
        int n;
        do {
            n = in.read(buf);
            if (n > 0) {
                out.write(buf, 0, n);
            }
        } while (n != -1);
    }

    // 9. Failing over across hosts, each tried once.
    Connection connectAny(List<String> hosts, Api api) throws IOException {
        IOException last = null;
        for (String host : hosts) {
            try {
                return api.connect(host);
            } catch (IOException ex) {
                last = ex;
            }
        }
        throw last;
    }

    // 10. Walking up a chain of causes.
    String rootMessage(Throwable t) {
        Throwable cause = t;
        while (cause != null) {
            try {
                return describe(cause);
            } catch (IllegalStateException ex) {
                cause = cause.getCause();
            }
        }
        return "";
    }

    // 11. Spin wait.
    void awaitReady(Api api) {
        while (!api.ready()) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    // 12. An event loop that stops when the consumer is drained.
    void consume(Consumer consumer) {
        while (true) {
            try {
                Message m = consumer.poll();
                if (m == null) {
                    break;
                }
                handle(m);
            } catch (Exception ex) {
                log("bad message", ex);
            }
        }
    }

    // 13. Acquiring a lock, giving up when interrupted.
    void lock(Lock lock) {
        while (true) {
            try {
                lock.lockInterruptibly();
                break;
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    // 14. Trying each provider in turn.
    Object firstWorking(List<Provider> providers) {
        Provider current = providers.get(0);
        int i = 0;
        while (true) {
            try {
                return current.create();
            } catch (RuntimeException ex) {
                i++;
                current = next(providers, i);
            }
        }
    }

    // 15. Paging through results.
    void pages(Api api) throws InterruptedException {
        int offset = 0;
        int total = api.count();
        while (offset < total) {
            try {
                offset += api.page(offset).size();
            } catch (IOException ex) {
                log("page failed", ex);
                Thread.sleep(500);
            }
        }
    }

    private void log(String msg, Exception ex) {}
    private String describe(Throwable t) { return t.getMessage(); }
    private void handle(Message m) {}
    private Provider next(List<Provider> ps, int i) { return ps.get(i); }
}
