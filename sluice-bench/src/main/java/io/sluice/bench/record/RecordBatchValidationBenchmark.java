package io.sluice.bench.record;

import com.github.luben.zstd.ZstdDecompressCtx;
import io.sluice.record.batch.BatchFormatException;
import io.sluice.record.batch.ByteWindow;
import io.sluice.record.batch.RecordBatchDescriptor;
import io.sluice.record.batch.RecordBatchView;
import io.sluice.record.compress.GzipPayloadDecompressor;
import io.sluice.record.compress.Lz4PayloadDecompressor;
import io.sluice.record.compress.PayloadDecompressor;
import io.sluice.record.compress.SnappyPayloadDecompressor;
import io.sluice.record.validate.BatchValidator;
import io.sluice.record.validate.RecordValidationException;
import io.sluice.record.validate.TopicValidationPolicy;
import io.sluice.record.validate.ValidatedRecords;
import io.sluice.record.validate.ValidatorConfig;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.CompressionType;
import org.apache.kafka.common.record.MemoryRecords;
import org.apache.kafka.common.record.MutableRecordBatch;
import org.apache.kafka.common.record.RecordBatch;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.utils.BufferSupplier;
import org.apache.kafka.common.utils.PrimitiveRef;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.server.common.MetadataVersion;
import org.apache.kafka.storage.internals.log.AppendOrigin;
import org.apache.kafka.storage.internals.log.LogValidator;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Broker-side validation of one produced batch, in one run on the same bytes:
 * {@link #sluice} (BatchValidator: CRC-32C, every batch and record check, streaming
 * decompression with key/value/header skipping), {@link #kafka} (Kafka 3.9: the CRC check
 * UnifiedLog makes, then LogValidator.validateMessagesAndAssignOffsets with a per-thread
 * BufferSupplier, as the broker calls it) and {@link #floor} (CRC-32C of the batch plus one
 * decompression of its payload into a reused direct buffer large enough for all of it; for zstd
 * with libzstd's one-shot decoder, the fastest one zstd-jni offers, which writes straight into
 * that buffer). {@link #floorStreaming} is the floor as it was before Sluice decoded whole zstd
 * payloads in one call: zstd's streaming decoder, which decodes each block into its own window
 * and copies it out; for the other codecs it is the same as {@link #floor}.
 * Topic policy: CreateTime, no timestamp bounds, producer codec kept, so validation leaves the
 * batch bytes unchanged and the same buffer is validated every invocation.
 *
 * <p>Not thread-safe; JMH gives each thread its own state.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class RecordBatchValidationBenchmark {

    private static final long NOW = 1_700_000_000_000L;

    @Param({"none", "gzip", "snappy", "lz4", "zstd"})
    public String codec;

    @Param({"1", "200"})
    public int records;

    @Param({"100", "1000", "10000"})
    public int valueSize;

    @Param({"random", "json"})
    public String payload;

    /** Sluice's reused decompression window (ValidatorConfig.decompressionWindowBytes), in KiB. */
    @Param({"128"})
    public int windowKiB;

    private ByteBuffer batch;
    private final TopicValidationPolicy policy =
            TopicValidationPolicy.defaults().withMaxMessageBytes(64 << 20);
    private BatchValidator validator;
    private BufferSupplier kafkaBuffers;
    private CompressionType kafkaCodec;
    private Compression kafkaCompression;
    private final RecordBatchView view = new RecordBatchView();
    private final ByteWindow floorWindow = new ByteWindow();
    private PayloadDecompressor floorDecompressor;
    private ZstdDecompressCtx floorZstd;
    private ByteBuffer floorZstdInput;
    private ByteBuffer floorOutput;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        batch = BenchBatches.build(codec, records, valueSize, payload, NOW - 1_000, 42L);
        ValidatorConfig defaults = ValidatorConfig.defaults();
        validator = new BatchValidator(new ValidatorConfig(
                windowKiB * 1024, defaults.maxDecompressionRatio(), defaults.maxDecompressedBytes()));
        kafkaBuffers = BufferSupplier.create();
        kafkaCodec = CompressionType.forName(codec);
        kafkaCompression = Compression.of(kafkaCodec).build();
        floorDecompressor = switch (codec) {
            case "gzip" -> new GzipPayloadDecompressor();
            case "snappy" -> new SnappyPayloadDecompressor();
            case "lz4" -> new Lz4PayloadDecompressor();
            default -> null;
        };
        if (codec.equals("zstd")) {
            floorZstd = new ZstdDecompressCtx();
            floorZstdInput = batch.duplicate();
        }
        floorOutput = ByteBuffer.allocateDirect(records * (valueSize + 512) + 65_536);
        // Both validators must accept the batch, or the benchmark compares failures.
        sluice();
        kafka();
        floor();
        floorStreaming();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        validator.close();
        if (floorDecompressor != null) {
            floorDecompressor.close();
        }
        if (floorZstd != null) {
            floorZstd.close();
        }
    }

    @Benchmark
    public ValidatedRecords sluice() throws RecordValidationException {
        return validator.validate(batch, policy, NOW);
    }

    @Benchmark
    public LogValidator.ValidationResult kafka() {
        MemoryRecords records = MemoryRecords.readableRecords(batch.duplicate());
        for (MutableRecordBatch b : records.batches()) {
            b.ensureValid();
        }
        LogValidator validator = new LogValidator(
                records,
                new TopicPartition("bench", 0),
                Time.SYSTEM,
                kafkaCodec,
                kafkaCompression,
                false,
                RecordBatch.MAGIC_VALUE_V2,
                TimestampType.CREATE_TIME,
                Long.MAX_VALUE,
                Long.MAX_VALUE,
                0,
                AppendOrigin.CLIENT,
                MetadataVersion.latestProduction());
        return validator.validateMessagesAndAssignOffsets(PrimitiveRef.ofLong(0), NO_METRICS, kafkaBuffers);
    }

    @Benchmark
    public long floor() throws BatchFormatException {
        if (floorZstd != null) {
            int crc = view.wrap(batch, 0).computeCrc();
            int payloadBytes = batch.limit() - RecordBatchDescriptor.RECORDS_OFFSET;
            return crc
                    + floorZstd.decompressDirectByteBuffer(
                            floorOutput,
                            0,
                            floorOutput.capacity(),
                            batch,
                            RecordBatchDescriptor.RECORDS_OFFSET,
                            payloadBytes);
        }
        return floorWithFramingReaders();
    }

    @Benchmark
    public long floorStreaming() throws BatchFormatException {
        if (floorZstd != null) {
            int crc = view.wrap(batch, 0).computeCrc();
            floorZstd.reset();
            floorZstdInput.limit(batch.limit()).position(RecordBatchDescriptor.RECORDS_OFFSET);
            floorOutput.clear();
            while (!floorZstd.decompressDirectByteBufferStream(floorOutput, floorZstdInput)) {
                if (!floorZstdInput.hasRemaining()) {
                    throw new IllegalStateException("zstd frame truncated");
                }
            }
            return crc + floorOutput.position();
        }
        return floorWithFramingReaders();
    }

    /** CRC plus the payload drained through Sluice's codec framing readers (no record walk). */
    private long floorWithFramingReaders() throws BatchFormatException {
        int crc = view.wrap(batch, 0).computeCrc();
        if (floorDecompressor == null) {
            return crc;
        }
        floorDecompressor.begin(batch, RecordBatchDescriptor.RECORDS_OFFSET, batch.limit());
        floorWindow.streaming(floorOutput, floorDecompressor, Long.MAX_VALUE).drainAll(0);
        return crc + floorWindow.limit();
    }

    private static final LogValidator.MetricsRecorder NO_METRICS = new LogValidator.MetricsRecorder() {
        @Override
        public void recordInvalidMagic() {}

        @Override
        public void recordInvalidOffset() {}

        @Override
        public void recordInvalidSequence() {}

        @Override
        public void recordInvalidChecksums() {}

        @Override
        public void recordNoKeyCompactedTopic() {}
    };
}
