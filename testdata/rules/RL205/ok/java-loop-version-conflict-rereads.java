package com.example.leader;

import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

// A compare-and-set on a versioned node: each pass reads the node anew and
// writes it back with the version read; only a version conflict (another
// writer got there first, `BadVersionException`) goes round. The next pass
// works on what that writer wrote, and the loop ends when this writer
// wins: not unbounded (alibaba/otter `SystemArbitrateEvent`, seventeenth
// pass). Going round at once is RL201's, since the eighteenth pass
// (`RL201/err/java-loop-version-conflict-at-once.java`).
public class ActiveFlag {

    private final ZooKeeper zk;

    ActiveFlag(ZooKeeper zk) {
        this.zk = zk;
    }

    public void release(String path) throws KeeperException, InterruptedException {
        while (true) {
            Stat stat = new Stat();
            byte[] data = zk.getData(path, false, stat);
            byte[] updated = Flags.withActive(data, false);
            try {
                zk.setData(path, updated, stat.getVersion());
                break;
            } catch (KeeperException.BadVersionException e) {
                // another writer changed it: read again
            }
        }
    }

    public void bump(VersionedStore store, String key) {
        for (;;) {
            Versioned v = store.read(key);
            try {
                store.writeIfVersion(key, v.value() + 1, v.version());
                return;
            } catch (OptimisticLockingFailureException e) {
                // lost the race: read again
            }
        }
    }
}
