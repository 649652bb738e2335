package org.example.ids;

// Asks the cluster controller for a fresh block of ids.
public final class IdBlockRequest {
    public static final class Block {
        private final long start;
        private final int size;

        Block(long start, int size) {
            this.start = start;
            this.size = size;
        }

        public long getStart() {
            return start;
        }

        public int getSize() {
            return size;
        }
    }

    public static Block send(AppContext appCtx) throws ServiceException {
        NodeControllerService ncs = appCtx.getServiceContext().getControllerService();
        return ncs.sendMessageToPrimaryCC(new IdBlockRequest());
    }
}
