package com.example.failover;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

// Loops that try each of several targets once: after a failure the next
// pass calls another host, replica or location, not the same one again.
// Failover needs no wait between its tries.
public class FailoverClient {

    private final List<String> hosts = new ArrayList<>();
    private int lastHost = -1;
    private Sender sender;
    private final int maxAttempts = 3;

    // The failed sender is closed and dropped; `current()` picks the next
    // host from the list (a walk over the candidates in a helper).
    public void send(byte[] event) throws DeliveryException {
        Sender local = null;
        int tries = 0;
        while (tries < maxAttempts) {
            try {
                tries++;
                local = current();
                local.send(event);
                return;
            } catch (DeliveryException e) {
                local.close();
                local = null;
            }
        }
        throw new DeliveryException("could not send");
    }

    private synchronized Sender current() {
        if (sender == null || !sender.isActive()) {
            sender = nextSender();
        }
        return sender;
    }

    private Sender nextSender() {
        for (int i = lastHost + 1; i < hosts.size(); i++) {
            try {
                Sender s = Sender.connect(hosts.get(i));
                lastHost = i;
                return s;
            } catch (DeliveryException e) {
                continue;
            }
        }
        throw new IllegalStateException("no host left");
    }

    private final String[] locations = new String[4];
    private final List<Deque<String>> spares = new ArrayList<>();
    private final List<String> failedLocations = new ArrayList<>();

    // A helper called from the catch records the failed location and
    // switches to a spare: the next read goes elsewhere.
    public int read(Buffer buf) throws IOException {
        while (true) {
            long pos = buf.position();
            try {
                return readFrom(buf);
            } catch (BadLocationException e) {
                int failed = e.index();
                closeStream(failed);
                if (switchToSpare(failed)) {
                    buf.seek(pos);
                } else {
                    throw e;
                }
            }
        }
    }

    private boolean switchToSpare(int failed) {
        Deque<String> spare = spares.get(failed);
        if (spare != null && !spare.isEmpty()) {
            failedLocations.add(locations[failed]);
            locations[failed] = spare.removeFirst();
            return true;
        }
        return false;
    }

    private final Set<Integer> failedIndexes = new TreeSet<>();

    // The read itself marks the index that failed; the catch starts again
    // without it (and `reset` throws once too few are left).
    public void readStripe(Buffer[] bufs) throws IOException {
        while (true) {
            try {
                loadFromStreams(bufs);
                break;
            } catch (IOException e) {
                reset();
            }
        }
    }

    private void loadFromStreams(Buffer[] bufs) throws IOException {
        for (int i = 0; i < bufs.length; i++) {
            try {
                fetch(i, bufs[i]);
            } catch (ExecutionException ee) {
                failedIndexes.add(i);
            }
        }
    }

    private void reset() throws IOException {
        if (failedIndexes.size() > 2) {
            throw new IOException("too few locations");
        }
    }
}
