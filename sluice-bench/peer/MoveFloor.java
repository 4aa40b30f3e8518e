import java.io.IOException;
import java.lang.management.ManagementFactory;
import com.sun.nio.file.ExtendedOpenOption;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.FileStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The floor of run-move-comparison.sh: the bare cost of moving a partition's segment files between two processes on
 * this machine, with nothing of a broker around it. The sender hands each file to the kernel with
 * {@code FileChannel.transferTo} (sendfile) over one loopback socket; the receiver reads what arrives into one 1 MiB
 * direct buffer and writes it into files of the same names (the best a JVM can do: {@code FileChannel.transferFrom}
 * from a socket goes through the JDK's 8 KiB temporary buffers: 1 GiB in 2.3-3.6 s against 1.7-2.0 s here, three
 * alternated runs at load 10), fsyncs each file and
 * the directory, and then acknowledges with one byte. No checksums, no framing beyond a name and a length per file, no
 * throttle. With {@code direct} the receiver bypasses the page cache as a Sluice move target does: it reads into a ring
 * of three block-aligned 1 MiB direct buffers and a writer thread writes each full buffer with O_DIRECT while the next
 * one fills (a file's last partial block is written through the page cache; a Sluice target's buffers are 8 MiB since
 * 2026-12-06, but this receiver drains its ring at the end of every file and ran slower with 8 MiB: 0.87-1.06 s
 * against 0.73-0.87 s for 1 GB in 8 files, three alternated runs, even with the ring kept across files); without it,
 * it writes through the page
 * cache, whose reclaim of a full cache the receiver then pays for (its speed drifted from 830 to 370 MB/s over an hour
 * of runs on 2026-11-28).
 *
 * <pre>
 *   receive DIR [direct] binds 127.0.0.1:0, prints "LISTENING port=.." then, after one sender is done,
 *                      RESULT files=.. bytes=.. ms=.. cpu_ms=..
 *   send PORT FILE...  connects to 127.0.0.1:PORT, sends the files, waits for the receiver's acknowledgement;
 *                      RESULT files=.. bytes=.. ms=.. cpu_ms=..
 * </pre>
 *
 * Stream layout, per file: int name length, the name's UTF-8 bytes, long file length, the file's bytes; an int 0
 * ends the stream. The receiver answers one byte once every file and the directory are on disk.
 *
 * Times: the sender's {@code ms} runs from just before connect to the acknowledgement (the whole move as a client
 * would see it); the receiver's from the accepted connection to the directory fsync. {@code cpu_ms} is the process's
 * CPU time (every thread, {@code OperatingSystemMXBean.getProcessCpuTime}) over the same span, JVM start excluded.
 * Not thread-safe; one transfer per process. Run as: java MoveFloor.java MODE ARGS... (no dependencies).
 */
public class MoveFloor {
    private static final int PAYLOAD_BYTES = 1 << 20;

    public static void main(String[] args) throws Exception {
        if (args.length >= 1 && args[0].equals("receive") && (args.length == 2 || args.length == 3)) {
            boolean direct = args.length == 3 && args[2].equals("direct");
            if (args.length == 3 && !direct) {
                throw new IllegalArgumentException("receive DIR [direct]: got '" + args[2] + "'");
            }
            receive(Path.of(args[1]), direct);
        } else if (args.length >= 3 && args[0].equals("send")) {
            String[] files = new String[args.length - 2];
            System.arraycopy(args, 2, files, 0, files.length);
            send(Integer.parseInt(args[1]), files);
        } else {
            System.err.println("usage: MoveFloor receive DIR [direct]\n       MoveFloor send PORT FILE...");
            System.exit(2);
        }
    }

    private static void send(int port, String[] files) throws IOException {
        long cpu0 = processCpuNanos();
        long start = System.nanoTime();
        long total = 0;
        try (SocketChannel socket = SocketChannel.open(new InetSocketAddress("127.0.0.1", port))) {
            ByteBuffer header = ByteBuffer.allocateDirect(4 + 4096 + 8);
            for (String name : files) {
                Path path = Path.of(name);
                try (FileChannel file = FileChannel.open(path, StandardOpenOption.READ)) {
                    long size = file.size();
                    byte[] fileName = path.getFileName().toString().getBytes(StandardCharsets.UTF_8);
                    header.clear();
                    header.putInt(fileName.length).put(fileName).putLong(size).flip();
                    writeFully(socket, header);
                    long sent = 0;
                    while (sent < size) {
                        sent += file.transferTo(sent, size - sent, socket);
                    }
                    total += size;
                }
            }
            header.clear();
            header.putInt(0).flip();
            writeFully(socket, header);
            ByteBuffer ack = ByteBuffer.allocate(1);
            if (socket.read(ack) != 1) {
                throw new IOException("receiver closed the connection without acknowledging");
            }
        }
        result(files.length, total, start, cpu0);
    }

    private static void receive(Path dir, boolean direct) throws IOException {
        Files.createDirectories(dir);
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress("127.0.0.1", 0));
            System.out.println("LISTENING port=" + ((InetSocketAddress) server.getLocalAddress()).getPort());
            System.out.flush();
            try (SocketChannel socket = server.accept()) {
                long cpu0 = processCpuNanos();
                long start = System.nanoTime();
                ByteBuffer header = ByteBuffer.allocateDirect(4096 + 8);
                ByteBuffer payload = ByteBuffer.allocateDirect(PAYLOAD_BYTES);
                int files = 0;
                long total = 0;
                while (true) {
                    int nameLength = readInt(socket, header);
                    if (nameLength == 0) {
                        break;
                    }
                    if (nameLength < 0 || nameLength > 4096) {
                        throw new IOException("file name length " + nameLength + " is outside 1..4096");
                    }
                    byte[] name = new byte[nameLength];
                    readFully(socket, header, nameLength).get(name);
                    long size = readFully(socket, header, 8).getLong();
                    Path target = dir.resolve(new String(name, StandardCharsets.UTF_8)).normalize();
                    if (!dir.equals(target.getParent())) {
                        throw new IOException("file name " + target.getFileName() + " leaves " + dir);
                    }
                    if (direct) {
                        receiveDirect(socket, target, size);
                        files++;
                        total += size;
                        continue;
                    }
                    try (FileChannel file = FileChannel.open(target, StandardOpenOption.CREATE_NEW,
                            StandardOpenOption.WRITE)) {
                        long written = 0;
                        while (written < size) {
                            payload.clear().limit((int) Math.min(payload.capacity(), size - written));
                            if (socket.read(payload) < 0) {
                                throw new IOException("connection ended after " + written + " of " + size
                                        + " bytes of " + target.getFileName());
                            }
                            payload.flip();
                            while (payload.hasRemaining()) {
                                written += file.write(payload, written);
                            }
                        }
                        file.force(true);
                    }
                    files++;
                    total += size;
                }
                try (FileChannel directory = FileChannel.open(dir, StandardOpenOption.READ)) {
                    directory.force(true);
                }
                result(files, total, start, cpu0);
                writeFully(socket, ByteBuffer.wrap(new byte[] {1}));
            }
        }
    }

    /**
     * One file's {@code size} bytes from {@code socket} into {@code target}: whole blocks with O_DIRECT from a ring of
     * three aligned buffers, written on a second thread while the next buffer fills; the last partial block through
     * the page cache; then fsync.
     */
    private static void receiveDirect(SocketChannel socket, Path target, long size) throws IOException {
        FileStore store = Files.getFileStore(target.getParent());
        int block = (int) store.getBlockSize();
        BlockingQueue<ByteBuffer> free = new ArrayBlockingQueue<>(3);
        BlockingQueue<ByteBuffer> full = new ArrayBlockingQueue<>(3);
        for (int i = 0; i < 3; i++) {
            free.add(ByteBuffer.allocateDirect(PAYLOAD_BYTES + block).alignedSlice(block));
        }
        ByteBuffer end = ByteBuffer.allocate(0);
        IOException[] failure = new IOException[1];
        try (FileChannel file = FileChannel.open(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                FileChannel directFile = FileChannel.open(target, StandardOpenOption.WRITE, ExtendedOpenOption.DIRECT)) {
            Thread writer = new Thread(() -> {
                long position = 0;
                try {
                    for (ByteBuffer buffer = full.take(); buffer != end; buffer = full.take()) {
                        try {
                            if (failure[0] == null) { // after a failure buffers only go back, for the reader
                                int whole = buffer.remaining() / block * block;
                                ByteBuffer blocks = buffer.duplicate().limit(buffer.position() + whole);
                                while (blocks.hasRemaining()) {
                                    position += directFile.write(blocks, position);
                                }
                                buffer.position(buffer.position() + whole);
                                while (buffer.hasRemaining()) {
                                    position += file.write(buffer, position);
                                }
                            }
                        } catch (IOException e) {
                            failure[0] = e;
                        }
                        free.put(buffer);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "floor-writer");
            writer.start();
            long received = 0;
            try {
                while (received < size) {
                    ByteBuffer buffer = free.take();
                    buffer.clear().limit((int) Math.min(PAYLOAD_BYTES, size - received));
                    while (buffer.hasRemaining()) {
                        if (socket.read(buffer) < 0) {
                            throw new IOException("connection ended after " + (received + buffer.position()) + " of "
                                    + size + " bytes of " + target.getFileName());
                        }
                    }
                    received += buffer.flip().remaining();
                    full.put(buffer);
                }
                full.put(end);
                writer.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
            if (failure[0] != null) {
                throw failure[0];
            }
            file.force(true);
        }
    }

    private static int readInt(SocketChannel socket, ByteBuffer scratch) throws IOException {
        return readFully(socket, scratch, 4).getInt();
    }

    /** Reads exactly {@code length} bytes into the scratch buffer and returns it flipped for reading. */
    private static ByteBuffer readFully(SocketChannel socket, ByteBuffer scratch, int length) throws IOException {
        scratch.clear().limit(length);
        while (scratch.hasRemaining()) {
            if (socket.read(scratch) < 0) {
                throw new IOException("connection ended inside a file header");
            }
        }
        return scratch.flip();
    }

    private static void writeFully(SocketChannel socket, ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            socket.write(buffer);
        }
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static void result(int files, long bytes, long startNanos, long cpu0) {
        System.out.println("RESULT files=" + files + " bytes=" + bytes + " ms="
                + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos)
                + " cpu_ms=" + TimeUnit.NANOSECONDS.toMillis(processCpuNanos() - cpu0));
        System.out.flush();
    }
}
