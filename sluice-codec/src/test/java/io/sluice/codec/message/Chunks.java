package io.sluice.codec.message;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;

/** Test helper: pushes messages through fixed-size buffers. Stateless. */
public final class Chunks {
    private Chunks() {}

    /** Writes {@code m} through buffers of {@code size} bytes (direct when asked) and returns all bytes written. */
    public static byte[] write(MessageWriter w, Message m, int size, boolean direct) {
        ByteBuffer buf = direct ? ByteBuffer.allocateDirect(size) : ByteBuffer.allocate(size);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        boolean done;
        int rounds = 0;
        do {
            buf.clear();
            w.setBuffer(buf);
            done = w.write(m);
            buf.flip();
            if (!done && buf.remaining() != size) {
                throw new AssertionError("writer returned unfinished with " + (size - buf.remaining()) + " bytes free");
            }
            byte[] chunk = new byte[buf.remaining()];
            buf.get(chunk);
            out.writeBytes(chunk);
            if (++rounds > 50_000_000) {
                throw new AssertionError("writer does not finish");
            }
        } while (!done);
        return out.toByteArray();
    }

    /** Reads one message from {@code bytes} fed in slices of {@code size}; asserts every byte is consumed. */
    public static Message read(MessageReader r, byte[] bytes, int size, boolean direct) {
        Message m = null;
        int off = 0;
        while (m == null) {
            if (off >= bytes.length) {
                return null;
            }
            int n = Math.min(size, bytes.length - off);
            ByteBuffer buf = direct ? ByteBuffer.allocateDirect(n) : ByteBuffer.allocate(n);
            buf.put(bytes, off, n).flip();
            r.setBuffer(buf);
            m = r.read();
            if (m == null && buf.hasRemaining()) {
                throw new AssertionError("reader returned unfinished with " + buf.remaining() + " bytes unread");
            }
            off += buf.position();
        }
        if (off != bytes.length) {
            throw new AssertionError("message ended at " + off + " of " + bytes.length + " bytes");
        }
        return m;
    }
}
