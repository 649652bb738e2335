package com.example.store;

import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;

// After "already exists" the loop takes a new name (a counter, a random
// id) and creates that: each pass tries something else, it does not retry
// one call (seen wrong on a repository outside the review set,
// docs/loop-review.md fourth pass).
public class LinkMaker {

    Path createLink(Path dir, Path source) throws IOException {
        Path link;
        boolean created = false;
        do {
            link = dir.resolve(counter.incrementAndGet() + ".sst");
            try {
                Files.createLink(link, source);
                created = true;
            } catch (FileAlreadyExistsException ignored) {
                LOG.info("{} exists, trying another name", link);
            }
        } while (!created);
        return link;
    }

    public TxId create() {
        while (true) {
            try {
                TxId id = ids.newRandomId();
                zk.putPersistentData(pathOf(id), emptyTx(), NodeExistsPolicy.FAIL);
                return id;
            } catch (NodeExistsException nee) {
                // taken: try another random id
            } catch (KeeperException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
