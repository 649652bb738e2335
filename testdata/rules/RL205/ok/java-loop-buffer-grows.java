package com.example.buffers;

import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;

// A buffer grown after it overflowed: in-memory work, no call left the
// process.
class Grows {
    interface Encoder {
        void encode(Object value, ByteBuffer into);
    }

    private ByteBuffer buf;
    private Encoder encoder;
    private final int[] sizes = new int[8];

    private void resize(int size) {
        buf = ByteBuffer.allocate(size);
    }

    ByteBuffer encode(Object[] values) {
        if (buf == null) {
            resize(1024);
        }
        while (true) {
            try {
                buf.clear();
                for (int i = 0, pos = 0; i < values.length; i++) {
                    encoder.encode(values[i], buf);
                    sizes[i] = buf.position() - pos;
                    pos = buf.position();
                }
                return buf;
            } catch (BufferOverflowException e) {
                if (buf.capacity() >= (1 << 24)) {
                    throw e;
                }
                resize(buf.capacity() * 2);
            }
        }
    }
}
