package io.sluice.bench.codec;

import io.sluice.codec.message.Message;
import io.sluice.codec.message.MessageWriter;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.Deflater;

/**
 * The baseline of benchmark 2, the way the seed's "master" column compresses a field: a fresh 10 KB direct scratch
 * buffer that doubles (copying) when full, a fresh nested writer per field, a copy of the scratch into a heap array,
 * and deflate into a fresh output. Stateless apart from a counter of the direct bytes it allocated.
 */
public final class NaiveCompressedField {
    static final int INITIAL_SCRATCH = 10 * 1024;
    /** Direct bytes allocated so far; invisible to gc.alloc.rate.norm, so counted here. */
    public static final AtomicLong DIRECT_BYTES = new AtomicLong();

    private NaiveCompressedField() {}

    public static byte[] compress(Message m) {
        MessageWriter nested = new MessageWriter();
        ByteBuffer scratch = ByteBuffer.allocateDirect(INITIAL_SCRATCH);
        DIRECT_BYTES.addAndGet(INITIAL_SCRATCH);
        nested.setBuffer(scratch);
        while (!nested.write(m)) {
            ByteBuffer bigger = ByteBuffer.allocateDirect(scratch.capacity() * 2);
            DIRECT_BYTES.addAndGet(bigger.capacity());
            scratch.flip();
            bigger.put(scratch);
            scratch = bigger;
            nested.setBuffer(scratch);
        }
        scratch.flip();
        byte[] raw = new byte[scratch.remaining()];
        scratch.get(raw);
        Deflater deflater = new Deflater();
        try {
            deflater.setInput(raw);
            deflater.finish();
            ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length / 2 + 64);
            byte[] chunk = new byte[4096];
            while (!deflater.finished()) {
                int n = deflater.deflate(chunk);
                out.write(chunk, 0, n);
            }
            return out.toByteArray();
        } finally {
            deflater.end();
        }
    }
}
