package com.example.log;

// A loop counting retries whose tested call is made on something it takes
// anew each pass: a full file is rolled over and the next pass appends to
// the new one. Not the same call tried again, and no wait would help.
public class SegmentAppender {

    private final int retryTimes = 3;

    public long append(Segments segments, byte[] unit) {
        for (int i = 0; i < retryTimes; i++) {
            Segment segment = segments.last();
            if (segment == null || segment.isFull()) {
                segment = segments.create();
            }
            if (segment.append(unit)) {
                return segment.offset();
            }
        }
        return -1;
    }
}
