package io.sluice.record.validate;

import static io.sluice.record.batch.RecordBatchDescriptor.ATTRIBUTES_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.BASE_TIMESTAMP_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.RECORDS_OFFSET;
import static io.sluice.record.batch.RecordBatchDescriptor.TIMESTAMP_TYPE_MASK;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.record.batch.BatchFormatException;
import io.sluice.record.batch.RecordBatchView;
import io.sluice.record.batch.RecordCursor;
import io.sluice.record.testing.KafkaBatches;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.statistics.Statistics;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;

/**
 * {@link RecordChecks#run}, which decides a whole run of records from the OR of their
 * mismatches and their least and greatest timestamps, must reach exactly the verdict, errors and
 * max timestamp that checking each record of the run one by one reaches, including at the edges
 * of long arithmetic: base timestamps and clocks near {@link Long#MIN_VALUE} and
 * {@link Long#MAX_VALUE}, timestamps of -1, and bounds of 0 and {@link Long#MAX_VALUE}.
 */
class RecordChecksRunTest {

    private static final long[] EDGES = {
        0,
        -1,
        1,
        -2,
        1_700_000_000_000L,
        Long.MAX_VALUE,
        Long.MIN_VALUE,
        Long.MAX_VALUE - 40,
        Long.MIN_VALUE + 40,
        Long.MAX_VALUE / 2,
        Long.MIN_VALUE / 2
    };

    @Property(tries = 3000)
    void shouldDecideARunAsCheckingItsRecordsOneByOneDoes(@ForAll long seed) throws BatchFormatException {
        Random random = new Random(seed);
        int count = 3 + random.nextInt(62); // offset deltas below 64 take one byte
        ByteBuffer batch = uniformBatch(count, random);
        int size = (batch.remaining() - RECORDS_OFFSET) / count;
        for (int forged = random.nextInt(3); forged > 0; forged--) {
            // attributes (+1) or offsetDelta (+3) of one record, keeping one byte
            batch.put(RECORDS_OFFSET + random.nextInt(count) * size + (random.nextBoolean() ? 1 : 3), (byte)
                    (2 * random.nextInt(64)));
        }
        batch.putLong(BASE_TIMESTAMP_OFFSET, pick(random));
        if (random.nextInt(8) == 0) {
            batch.putShort(ATTRIBUTES_OFFSET, (short) (batch.getShort(ATTRIBUTES_OFFSET) | TIMESTAMP_TYPE_MASK));
        }
        TopicValidationPolicy policy = TopicValidationPolicy.defaults()
                .withCompacted(random.nextInt(4) == 0)
                .withLogAppendTime(random.nextInt(6) == 0)
                .withTimestampBounds(bound(random), bound(random));
        long base = batch.getLong(BASE_TIMESTAMP_OFFSET);
        long now = switch (random.nextInt(3)) {
            case 0 -> pick(random);
            case 1 -> base + random.nextInt(200) - 100;
            // now - t overflows for some record timestamps t of the run and not for others
            default -> base + random.nextInt(64) + Long.MAX_VALUE;
        };
        RecordBatchView view = new RecordBatchView().wrap(batch, 0);

        RecordChecks inRuns = new RecordChecks();
        RecordChecks oneByOne = new RecordChecks();
        inRuns.start(view, policy, now);
        oneByOne.start(view, policy, now);
        RecordCursor cursor = new RecordCursor().over(batch, RECORDS_OFFSET, batch.limit());
        int runs = 0;
        for (int index = 0; index < count; ) {
            int run = cursor.nextRun(1 + random.nextInt(count - index));
            if (run == 0) {
                cursor.next();
                inRuns.record(index, cursor);
                oneByOne.record(index++, cursor);
                continue;
            }
            runs++;
            for (int k = 0; k < run; k++) {
                oneByOne.record(
                        index + k,
                        cursor.runAttributes(k),
                        cursor.runTimestampDelta(k),
                        cursor.runOffsetDelta(k),
                        cursor.keyLength());
            }
            index = inRuns.run(index, cursor, run);
        }
        assertTrue(runs > 0, "the uniform records were read in runs");
        assertEquals(verdict(oneByOne), verdict(inRuns), "seed " + seed);
        Statistics.label("verdict").collect(verdict(oneByOne).startsWith("accepted") ? "accepted" : "rejected");
    }

    @Test
    void shouldNotDecideARunFromItsEndsWhereNowMinusATimestampOverflows() throws BatchFormatException {
        // now = 50: now - t overflows for t below MIN + 51. The bounds pass at t = MIN + 20 (now - t
        // wraps to MIN + 30) and at t = MIN + 83 (MAX - 32), not at t = MIN + 52 (MAX - 1).
        ByteBuffer batch = KafkaBatches.batch(
                0,
                List.of(
                        new KafkaBatches.Rec(1_000, null, new byte[10], new Header[0]),
                        new KafkaBatches.Rec(1_032, null, new byte[10], new Header[0]),
                        new KafkaBatches.Rec(1_063, null, new byte[10], new Header[0])));
        batch.putLong(BASE_TIMESTAMP_OFFSET, Long.MIN_VALUE + 20);
        TopicValidationPolicy policy =
                TopicValidationPolicy.defaults().withTimestampBounds(Long.MAX_VALUE - 32, Long.MAX_VALUE - 29);
        RecordBatchView view = new RecordBatchView().wrap(batch, 0);
        RecordChecks checks = new RecordChecks();
        checks.start(view, policy, 50);
        RecordCursor cursor = new RecordCursor().over(batch, RECORDS_OFFSET, batch.limit());
        cursor.next();
        cursor.next();
        cursor.over(batch, RECORDS_OFFSET, batch.limit());
        assertEquals(3, cursor.nextRun(3));
        assertEquals(3, checks.run(0, cursor, 3));
        assertTrue(verdict(checks).contains("[RecordError[batchIndex=1"), verdict(checks));
    }

    /** Records of one layout: null or 3-byte keys, 10-byte values, timestamp deltas of one byte. */
    private static ByteBuffer uniformBatch(int count, Random random) {
        boolean nullKeys = random.nextInt(3) == 0;
        List<KafkaBatches.Rec> recs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            long delta = i == 0 ? 0 : random.nextInt(64);
            recs.add(new KafkaBatches.Rec(
                    1_000 + delta, nullKeys ? null : new byte[] {1, 2, 3}, new byte[10], new Header[0]));
        }
        return KafkaBatches.batch(0, recs);
    }

    private static long pick(Random random) {
        long edge = EDGES[random.nextInt(EDGES.length)];
        return random.nextBoolean() ? edge : edge + random.nextInt(129) - 64;
    }

    private static long bound(Random random) {
        return switch (random.nextInt(4)) {
            case 0 -> 0;
            case 1 -> Long.MAX_VALUE;
            case 2 -> random.nextInt(100);
            default -> Long.MAX_VALUE - random.nextInt(100);
        };
    }

    private static String verdict(RecordChecks checks) {
        String outcome;
        try {
            checks.finish();
            outcome = "accepted";
        } catch (RecordValidationException e) {
            outcome = e.errorCode() + " " + e.getMessage() + " " + e.recordErrors();
        }
        return outcome + " max " + checks.maxTimestamp() + " at " + checks.maxTimestampOffsetDelta();
    }
}
