package io.sluice.bench.record;

import io.sluice.record.batch.RecordBatchDescriptor;
import io.sluice.record.batch.RecordBatchView;
import io.sluice.record.batch.RecordCursor;
import io.sluice.record.validate.BatchValidator;
import io.sluice.record.validate.TopicValidationPolicy;
import io.sluice.record.validate.ValidatorConfig;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.util.Locale;

/**
 * Where the validation of one uncompressed 200-record batch spends its thread CPU time: the whole
 * {@link BatchValidator#validate}, a bare {@link RecordCursor} walk over the same records (in runs
 * of one layout where it can, as the validator walks them; and, for comparison, one record at a
 * time, the walk before runs), and
 * the batch CRC, round by round in one JVM. What validation costs beyond the walk and the CRC is
 * the per-record checks and the framing.
 *
 * <p>Run: {@code java -cp 'sluice-bench/target/classes:sluice-bench/target/lib/*'
 * io.sluice.bench.record.RecordValidationSplit [value bytes [rounds]]}
 *
 * <p>Not thread-safe; a command-line tool.
 */
public final class RecordValidationSplit {

    private static final int RECORDS = 200;
    private static final int CALLS_PER_ROUND = 20_000;
    private static final long NOW = 1_700_000_000_000L;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private RecordValidationSplit() {}

    public static void main(String[] args) throws Exception {
        int valueSize = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 12;
        ByteBuffer batch = BenchBatches.build("none", RECORDS, valueSize, "random", NOW - 1_000, 42L);
        TopicValidationPolicy policy = TopicValidationPolicy.defaults().withMaxMessageBytes(64 << 20);
        RecordCursor cursor = new RecordCursor();
        RecordBatchView view = new RecordBatchView();
        long sink = 0;
        System.out.println("| round | validate µs | cursor walk µs | ns/record | CRC µs | validate − walk − CRC µs"
                + " | walk one record at a time, ns/record |");
        System.out.println("|---:|---:|---:|---:|---:|---:|---:|");
        try (BatchValidator validator = new BatchValidator(ValidatorConfig.defaults())) {
            for (int round = 0; round < rounds; round++) {
                long start = THREADS.getCurrentThreadCpuTime();
                for (int i = 0; i < CALLS_PER_ROUND; i++) {
                    sink += validator.validate(batch, policy, NOW).recordCount();
                }
                long validated = THREADS.getCurrentThreadCpuTime();
                for (int i = 0; i < CALLS_PER_ROUND; i++) {
                    cursor.over(batch, RecordBatchDescriptor.RECORDS_OFFSET, batch.limit());
                    for (int r = 0; r < RECORDS; ) {
                        int run = cursor.nextRun(RECORDS - r);
                        if (run == 0) {
                            cursor.next();
                            run = 1;
                        }
                        r += run;
                        sink += cursor.offsetDelta();
                    }
                }
                long walked = THREADS.getCurrentThreadCpuTime();
                for (int i = 0; i < CALLS_PER_ROUND; i++) {
                    sink += view.wrap(batch, 0).computeCrc();
                }
                long crced = THREADS.getCurrentThreadCpuTime();
                for (int i = 0; i < CALLS_PER_ROUND; i++) {
                    cursor.over(batch, RecordBatchDescriptor.RECORDS_OFFSET, batch.limit());
                    for (int r = 0; r < RECORDS; r++) {
                        cursor.next();
                    }
                    sink += cursor.offsetDelta();
                }
                long walkedOneByOne = THREADS.getCurrentThreadCpuTime();
                double validate = (validated - start) / (CALLS_PER_ROUND * 1e3);
                double walk = (walked - validated) / (CALLS_PER_ROUND * 1e3);
                double crc = (crced - walked) / (CALLS_PER_ROUND * 1e3);
                double oneByOne = (walkedOneByOne - crced) / (CALLS_PER_ROUND * 1e3);
                System.out.println(String.format(
                        Locale.ROOT,
                        "| %d | %.2f | %.2f | %.1f | %.2f | %.2f | %.1f |",
                        round,
                        validate,
                        walk,
                        walk * 1e3 / RECORDS,
                        crc,
                        validate - walk - crc,
                        oneByOne * 1e3 / RECORDS));
            }
        }
        System.out.println("(checksum " + sink + ")");
    }
}
