package io.sluice.record.clean;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.record.batch.BatchFormatException;
import io.sluice.record.batch.RecordBatchView;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.MemoryRecordsBuilder;
import org.apache.kafka.common.record.MutableRecordBatch;
import org.apache.kafka.common.record.Record;
import org.apache.kafka.common.record.RecordBatch;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

/**
 * The cleaner's batch decoder on garbage (every byte of a batch flipped, records cut short, forged counts): a typed
 * {@link BatchFormatException} or a decode, never another exception or a large allocation; and a rebuilt batch of kept
 * records reads back through kafka-clients with a valid CRC, for every codec.
 */
class DecodedBatchGarbageTest {
    private static ByteBuffer batch(Compression compression) {
        MemoryRecordsBuilder builder = MemoryRecords.builder(
                ByteBuffer.allocate(4096),
                RecordBatch.CURRENT_MAGIC_VALUE,
                compression,
                TimestampType.CREATE_TIME,
                100L,
                5_000L,
                9L,
                (short) 1,
                3,
                false,
                2);
        for (int i = 0; i < 12; i++) {
            builder.append(
                    5_000L + i,
                    ("k" + (i % 4)).getBytes(StandardCharsets.UTF_8),
                    i % 5 == 0 ? null : ("v" + i).getBytes(StandardCharsets.UTF_8));
        }
        return builder.build().buffer();
    }

    @Test
    void shouldEndEveryMutatedBatchInADecodeOrATypedError() {
        Random random = new Random(14);
        try (DecodedBatch decoded = new DecodedBatch(1 << 20)) {
            for (Compression compression : List.of(
                    Compression.NONE,
                    Compression.gzip().build(),
                    Compression.zstd().build())) {
                ByteBuffer original = batch(compression);
                for (int at = 0; at < original.limit(); at++) {
                    for (int round = 0; round < 3; round++) {
                        ByteBuffer mutated = ByteBuffer.allocate(original.limit())
                                .put(original.duplicate())
                                .flip();
                        mutated.put(at, (byte) random.nextInt());
                        RecordBatchView view = new RecordBatchView().wrap(mutated, 0);
                        if (view.sizeInBytes() != mutated.limit()) {
                            continue; // framing is checked before the cleaner decodes (BatchFraming)
                        }
                        try {
                            decoded.decode(view);
                        } catch (BatchFormatException expected) {
                            // typed
                        }
                    }
                }
            }
        }
    }

    @Test
    void shouldRebuildKeptRecordsReadableByKafkaClients() throws Exception {
        BatchRebuilder rebuilder = new BatchRebuilder();
        for (Compression compression : List.of(
                Compression.NONE,
                Compression.gzip().build(),
                Compression.snappy().build(),
                Compression.lz4().build(),
                Compression.zstd().build())) {
            try (DecodedBatch decoded = new DecodedBatch(1 << 20)) {
                ByteBuffer original = batch(compression);
                RecordBatchView view = new RecordBatchView().wrap(original, 0);
                int n = decoded.decode(view);
                int[] kept = {1, 5, 11};
                ByteBuffer rebuilt = rebuilder.rebuild(view, decoded, kept, kept.length, 99_000L);
                MutableRecordBatch batch = MemoryRecords.readableRecords(rebuilt)
                        .batches()
                        .iterator()
                        .next();
                batch.ensureValid();
                assertEquals(12, n);
                assertEquals(100L, batch.baseOffset());
                assertEquals(111L, batch.lastOffset(), "last offset delta kept");
                assertEquals(3, batch.baseSequence());
                assertEquals(9L, batch.producerId());
                assertEquals(99_000L, batch.deleteHorizonMs().getAsLong());
                assertEquals(compression.type(), batch.compressionType());
                List<Record> records = new java.util.ArrayList<>();
                batch.forEach(records::add);
                assertEquals(
                        List.of(101L, 105L, 111L),
                        records.stream().map(Record::offset).toList());
                assertEquals(
                        List.of(5_001L, 5_005L, 5_011L),
                        records.stream().map(Record::timestamp).toList());
                assertEquals(false, records.get(1).hasValue(), "the tombstone stays a tombstone");
                ByteBuffer empty = rebuilder.emptyHeader(view);
                MutableRecordBatch header = MemoryRecords.readableRecords(empty)
                        .batches()
                        .iterator()
                        .next();
                header.ensureValid();
                assertEquals(111L, header.lastOffset());
                assertEquals(0, header.countOrNull());
            }
        }
    }
}
