package com.example.tables;

import static com.google.common.util.concurrent.Uninterruptibles.sleepUninterruptibly;
import static java.util.concurrent.TimeUnit.SECONDS;

// `sleepUninterruptibly` imported statically with its unit: a fixed 3 s,
// not 3 ms (seen wrong on a repository outside the review set,
// docs/loop-review.md fourth pass).
public class SplitLister {

    public List<Text> listSplits(ClientContext context, String table) throws TableNotFoundException {
        for (int attempt = 1; attempt <= 3; attempt++) {
            try {
                return context.readSplits(table);
            } catch (TabletDeletedException e) {
                context.requireTableExists(table);
                sleepUninterruptibly(3, SECONDS);
            }
        }
        throw new TableNotFoundException(table);
    }
}
