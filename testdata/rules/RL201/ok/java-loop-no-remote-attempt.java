package com.example.accounts;

// Nothing the loop attempts shows that it leaves the process: a sync and a
// commit on the project's own types, a conflict caught, the session
// refreshed and the work done again. Unknown is not remote: not a retry
// of a remote call (a loop of this shape on a repository never reviewed,
// docs/loop-review.md fifteenth pass).
public class AccountSync {

    private static final int MAX_ATTEMPTS = 50;

    public void sync(Account account, Workspace workspace) throws SyncException {
        int attempt = 0;
        boolean done = false;
        while (!done && attempt++ < MAX_ATTEMPTS) {
            Merger merger = workspace.merger();
            try {
                merger.merge(account);
                workspace.commit();
                done = true;
            } catch (ConflictException e) {
                workspace.refresh();
            }
        }
        if (!done) {
            throw new SyncException("sync failed after " + MAX_ATTEMPTS + " attempts");
        }
    }
}
