package io.sluice.bench.record;

import io.sluice.record.batch.BatchFormatException;
import io.sluice.record.batch.RecordBatchDescriptor;
import io.sluice.record.batch.RecordBatchView;
import io.sluice.record.batch.RecordCursor;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Locale;

/**
 * What walking the records of a batch costs at the least on this machine, against the budget the
 * "90% of the floor" target leaves: the same uncompressed batches as
 * {@link RecordBatchValidationBenchmark} (200 records, 5 headers each, values of 100, 1000 and
 * 10000 bytes), walked four ways in thread CPU time, interleaved round by round in one JVM:
 * <ul>
 *   <li>{@code crc}: CRC-32C of the batch, the floor for uncompressed batches;</li>
 *   <li>{@code lengthChain}: only the length prefixes, record to record (one varint per record, no
 *       other field): no validator that looks at every record can be cheaper;</li>
 *   <li>{@code bareWalk}: every field of every record decoded from a heap array (one- and two-byte
 *       varints and one-byte header lengths without a loop), no check other than the JVM's array
 *       bounds and the final record-length match;</li>
 *   <li>{@code cursor}: Sluice's {@link RecordCursor} over the direct buffer, every check made
 *       (after the first records of a batch, by the layout words of {@code RecordLayout}).</li>
 * </ul>
 *
 * <p>Run: {@code java -cp 'sluice-bench/target/classes:sluice-bench/target/lib/*'
 * io.sluice.bench.record.RecordWalkBound [rounds]}
 *
 * <p>Not thread-safe; a command-line tool.
 */
public final class RecordWalkBound {

    private static final int RECORDS = 200;
    private static final int[] VALUE_SIZES = {100, 1000, 10000};
    private static final int OPS_PER_ROUND = 2000;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private RecordWalkBound() {}

    private interface Walk {
        long run() throws BatchFormatException;
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 15;
        System.out.println("| value B | crc µs | lengthChain µs | bareWalk µs | cursor µs | ns/record: lengthChain"
                + " | bareWalk | cursor |");
        System.out.println("|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (int valueSize : VALUE_SIZES) {
            ByteBuffer batch = BenchBatches.build("none", RECORDS, valueSize, "random", 0L, 42L);
            byte[] heap = new byte[batch.remaining()];
            batch.get(0, heap);
            RecordBatchView view = new RecordBatchView();
            RecordCursor cursor = new RecordCursor();
            int from = RecordBatchDescriptor.RECORDS_OFFSET;
            Walk[] walks = {
                () -> view.wrap(batch, 0).computeCrc(),
                () -> lengthChain(heap, from, RECORDS),
                () -> bareWalk(heap, from, RECORDS),
                () -> cursorWalk(cursor.over(batch, from, batch.limit()), RECORDS),
            };
            double[][] micros = new double[walks.length][rounds];
            long sink = 0;
            for (int r = -2; r < rounds; r++) {
                for (int w = 0; w < walks.length; w++) {
                    long start = THREADS.getCurrentThreadCpuTime();
                    for (int n = 0; n < OPS_PER_ROUND; n++) {
                        sink += walks[w].run();
                    }
                    if (r >= 0) {
                        micros[w][r] = (THREADS.getCurrentThreadCpuTime() - start) / 1000.0 / OPS_PER_ROUND;
                    }
                }
            }
            double[] median = new double[walks.length];
            for (int w = 0; w < walks.length; w++) {
                double[] sorted = micros[w].clone();
                Arrays.sort(sorted);
                median[w] = sorted[rounds / 2];
            }
            System.out.println(String.format(
                            Locale.ROOT,
                            "| %d | %.2f | %.2f | %.2f | %.2f | %.1f | %.1f | %.1f |",
                            valueSize,
                            median[0],
                            median[1],
                            median[2],
                            median[3],
                            1000 * median[1] / RECORDS,
                            1000 * median[2] / RECORDS,
                            1000 * median[3] / RECORDS)
                    + (sink == 42 ? " " : ""));
        }
    }

    private static long cursorWalk(RecordCursor cursor, int count) throws BatchFormatException {
        long sum = 0;
        for (int i = 0; i < count; i++) {
            cursor.next();
            sum += cursor.offsetDelta();
        }
        return sum;
    }

    /** Follows the record length prefixes only. */
    private static long lengthChain(byte[] b, int from, int count) {
        int p = from;
        for (int i = 0; i < count; i++) {
            long r = varint(b, p);
            p = (int) r + zigzag((int) (r >>> 32));
        }
        return p;
    }

    /** Decodes every field of every record; checks only that the fields fill the record. */
    private static long bareWalk(byte[] b, int from, int count) {
        int p = from;
        long sum = 0;
        for (int i = 0; i < count; i++) {
            long r = varint(b, p);
            p = (int) r;
            int end = p + zigzag((int) (r >>> 32));
            sum += b[p++];
            r = varint(b, p);
            sum += zigzag((int) (r >>> 32));
            r = varint(b, (int) r);
            sum += zigzag((int) (r >>> 32));
            p = skip(b, (int) r);
            p = skip(b, p);
            r = varint(b, p);
            int headers = zigzag((int) (r >>> 32));
            p = (int) r;
            for (int h = 0; h < headers; h++) {
                int keyLength = b[p];
                if ((keyLength & 0x81) == 0) {
                    p += 1 + (keyLength >>> 1);
                } else {
                    p = skip(b, p);
                }
                int valueLength = b[p];
                if ((valueLength & 0x81) == 0) {
                    p += 1 + (valueLength >>> 1);
                } else {
                    p = skip(b, p);
                }
            }
            if (p != end) {
                throw new IllegalStateException("record " + i + " ends at " + p + ", its length says " + end);
            }
            p = end; // the next record's start depends on the length chain only
        }
        return sum;
    }

    private static int skip(byte[] b, int p) {
        long r = varint(b, p);
        return (int) r + Math.max(zigzag((int) (r >>> 32)), 0);
    }

    /** Raw varint at p: value in the high half, next position in the low half. */
    private static long varint(byte[] b, int p) {
        int x = b[p];
        if (x >= 0) {
            return ((long) x << 32) | (p + 1);
        }
        int y = b[p + 1];
        if (y >= 0) {
            return ((long) ((x & 0x7f) | (y << 7)) << 32) | (p + 2);
        }
        int raw = (x & 0x7f) | (y & 0x7f) << 7;
        int shift = 14;
        p++;
        while (true) {
            int z = b[++p];
            raw |= (z & 0x7f) << shift;
            if (z >= 0) {
                return ((long) raw << 32) | (p + 1);
            }
            shift += 7;
        }
    }

    private static int zigzag(int raw) {
        return (raw >>> 1) ^ -(raw & 1);
    }
}
