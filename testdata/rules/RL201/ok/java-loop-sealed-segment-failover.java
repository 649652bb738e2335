package com.acme.stream;

import java.nio.ByteBuffer;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

// Failover to the successor of a sealed log segment: a segment closed for
// appends answers `SegmentSealedException`; the catch hands it to a method
// of this class that records it among the sealed ones (the router then
// answers its successors), and the next pass asks the router again and
// writes to another segment. Each pass writes elsewhere, so it is not the
// same call tried again: no back-off is owed (RL201) and the stream being
// sealed ends it, not a count (RL205) (pravega `EventStreamWriterImpl`
// `writeLargeEvent`, twenty-seventh pass).
public class LargeRecordWriter {
  private final SegmentRouter router;
  private final SegmentClient client;
  private final Queue<Segment> sealedSegments = new ConcurrentLinkedQueue<>();

  public LargeRecordWriter(SegmentRouter router, SegmentClient client) {
    this.router = router;
    this.client = client;
  }

  public void write(String key, ByteBuffer record) throws SegmentSealedException {
    boolean written = false;
    while (!written) {
      Segment segment = router.segmentFor(key);
      try {
        client.append(segment, record);
        written = true;
      } catch (SegmentSealedException e) {
        System.err.println("segment " + segment + " sealed, retrying the write on its successor");
        onSealed(segment);
        if (router.isStreamSealed()) {
          throw e;
        }
      }
    }
  }

  private void onSealed(Segment segment) {
    sealedSegments.add(segment);
    router.refreshFrom(sealedSegments);
  }

  public interface Segment {}

  public interface SegmentRouter {
    Segment segmentFor(String key);

    boolean isStreamSealed();

    void refreshFrom(Queue<Segment> sealed);
  }

  public interface SegmentClient {
    void append(Segment segment, ByteBuffer record) throws SegmentSealedException;
  }

  public static class SegmentSealedException extends Exception {}
}
