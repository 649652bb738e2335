// A block of ids used up is refilled from the id service and the loop takes
// the next id again: what goes round is `block.nextId()`, a local step, and
// the one remote call (`IdBlockRequest.send`) sits in the handler inside a
// try of its own whose failure gives up (`throw`). No failed remote call is
// tried again, so the loop needs neither a limit nor a delay.
package org.example.ids;

public class CachingIdFactory {
    private volatile Block block = new Block(0, 0);
    private final AppContext appCtx;

    public CachingIdFactory(AppContext appCtx) {
        this.appCtx = appCtx;
    }

    public TxnId create() throws IdException {
        while (true) {
            try {
                return new TxnId(block.nextId());
            } catch (BlockExhaustedException ex) {
                IdBlockRequest.Block fresh;
                try {
                    fresh = IdBlockRequest.send(appCtx);
                } catch (ServiceException e) {
                    throw new IdException(e);
                }
                block = new Block(fresh.getStart(), fresh.getSize());
            }
        }
    }
}
