package io.sluice.bench.codec;

import com.google.protobuf.CodedOutputStream;
import io.sluice.codec.message.MessageReader;
import io.sluice.codec.message.MessageWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.apache.ignite.internal.direct.DirectMessageWriter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Benchmark 1 of issue 4: a ~35-field primitive message written through a fixed 32-byte or 64 KB buffer, the way a
 * network thread writes into a socket buffer (a full buffer is "flushed" by clearing it). Sluice's
 * {@link MessageWriter} vs Apache Ignite 2.17's {@link DirectMessageWriter} vs protobuf-java's
 * {@link CodedOutputStream} on the equivalent message. One op = one complete message.
 * State is per thread, as writers are per network thread. The JVM flags are what Ignite 2.17 needs on JDK 17 (its
 * GridUnsafe reads {@code Buffer.address}); every method runs with them.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(
        value = 1,
        jvmArgsAppend = {
            "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "--add-opens=java.base/jdk.internal.misc=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens=java.base/java.lang=ALL-UNNAMED",
            "--add-opens=java.base/java.util=ALL-UNNAMED"
        })
public class MessageWriterBenchmark {

    @Param({"32", "65536"})
    public int bufferSize;

    /** Socket buffers are direct; heap is there to show the writer is not tied to one kind. */
    @Param({"direct"})
    public String bufferKind;

    private ByteBuffer buffer;
    private final SluicePrimitiveMessage sluiceMessage = new SluicePrimitiveMessage();
    private final MessageWriter sluiceWriter = new MessageWriter();
    private final IgnitePrimitiveMessage igniteMessage = new IgnitePrimitiveMessage();
    private final DirectMessageWriter igniteWriter = new DirectMessageWriter();
    private final PrimitiveFields fields = new PrimitiveFields();
    private OutputStream socket;
    private long bytesPerMessage;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        buffer = "heap".equals(bufferKind) ? ByteBuffer.allocate(bufferSize) : ByteBuffer.allocateDirect(bufferSize);
        fields.fill(17);
        sluiceMessage.f.copyFrom(fields);
        igniteMessage.f.copyFrom(fields);
        socket = new BufferSocket(buffer);
        verifySluiceRoundTrip();
        buffer.clear();
    }

    /** The benchmark is only meaningful if the message survives the same buffer size. */
    private void verifySluiceRoundTrip() {
        ByteBuffer all = ByteBuffer.allocate(4096);
        MessageReader reader = new MessageReader(SluicePrimitiveMessage.REGISTRY);
        buffer.clear();
        sluiceWriter.setBuffer(buffer);
        boolean done;
        do {
            done = sluiceWriter.write(sluiceMessage);
            buffer.flip();
            all.put(buffer);
            buffer.clear();
            sluiceWriter.setBuffer(buffer);
        } while (!done);
        all.flip();
        bytesPerMessage = all.remaining();
        reader.setBuffer(all);
        SluicePrimitiveMessage back = (SluicePrimitiveMessage) reader.read();
        if (back == null || !back.f.sameAs(fields)) {
            throw new IllegalStateException("round trip through " + bufferSize + "-byte buffers failed");
        }
    }

    @Benchmark
    public int sluice() {
        ByteBuffer buf = buffer;
        MessageWriter w = sluiceWriter;
        w.setBuffer(buf);
        while (!w.write(sluiceMessage)) {
            buf.clear();
            w.setBuffer(buf);
        }
        int pos = buf.position();
        buf.clear();
        return pos;
    }

    @Benchmark
    public int ignite() {
        ByteBuffer buf = buffer;
        DirectMessageWriter w = igniteWriter;
        while (!igniteMessage.writeTo(buf, w)) {
            buf.clear();
        }
        w.reset();
        int pos = buf.position();
        buf.clear();
        return pos;
    }

    @Benchmark
    public int protobuf() throws IOException {
        ByteBuffer buf = buffer;
        if (bufferSize >= 4096) {
            CodedOutputStream out = CodedOutputStream.newInstance(buf);
            ProtobufPrimitiveMessage.writeTo(fields, out);
            out.flush();
        } else {
            CodedOutputStream out = CodedOutputStream.newInstance(socket, bufferSize);
            ProtobufPrimitiveMessage.writeTo(fields, out);
            out.flush();
        }
        int pos = buf.position();
        buf.clear();
        return pos;
    }

    public long bytesPerMessage() {
        return bytesPerMessage;
    }

    /** Copies into the fixed buffer, clearing it whenever it is full. Not thread-safe; one per benchmark state. */
    private static final class BufferSocket extends OutputStream {
        private final ByteBuffer buf;

        BufferSocket(ByteBuffer buf) {
            this.buf = buf;
        }

        @Override
        public void write(int b) {
            if (!buf.hasRemaining()) {
                buf.clear();
            }
            buf.put((byte) b);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            while (len > 0) {
                if (!buf.hasRemaining()) {
                    buf.clear();
                }
                int n = Math.min(len, buf.remaining());
                buf.put(b, off, n);
                off += n;
                len -= n;
            }
        }
    }
}
