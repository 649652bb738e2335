package com.example.admin;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

// Waiting out an interrupt for each future: a cancelled or failed one is
// skipped with `continue MEMBERS`, which leaves the inner loop for the next
// future. Only the interrupt goes round, and that is no retry.
public class MemberDirectory {
    private final List<Future<String>> pending = new ArrayList<>();

    public Collection<String> members() {
        Collection<String> out = new ArrayList<>();
        MEMBERS: for (Future<String> future : pending) {
            for (;;) {
                boolean interrupted = Thread.interrupted();
                try {
                    out.add(future.get());
                    break;
                } catch (InterruptedException ex) {
                    interrupted = true;
                    continue; // keep trying
                } catch (CancellationException ex) {
                    continue MEMBERS;
                } catch (ExecutionException ex) {
                    record(ex);
                    continue MEMBERS;
                } finally {
                    if (interrupted) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
        }
        return out;
    }

    private void record(ExecutionException ex) {
        System.err.println("member lookup failed: " + ex.getMessage());
    }
}
