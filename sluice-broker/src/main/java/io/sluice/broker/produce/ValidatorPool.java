package io.sluice.broker.produce;

import io.sluice.record.validate.BatchValidator;
import io.sluice.record.validate.RecordValidationException;
import io.sluice.record.validate.TopicValidationPolicy;
import io.sluice.record.validate.ValidatedRecords;
import io.sluice.record.validate.ValidationObserver;
import io.sluice.record.validate.ValidatorConfig;
import java.nio.ByteBuffer;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One batch validator per request-handler thread (a validator holds decompression buffers and
 * native contexts that must not be shared), all closed when the broker stops.
 *
 * <p>Thread-safe.
 */
public final class ValidatorPool implements AutoCloseable {
    private final ValidatorConfig config;
    private final Set<BatchValidator> created = ConcurrentHashMap.newKeySet();
    private final ThreadLocal<BatchValidator> perThread;
    private final ValidationObserver observer;

    public ValidatorPool(ValidatorConfig config) {
        this(config, ValidationObserver.NONE);
    }

    /** @param observer told of every accepted partition's batches, recompressions and validation time */
    public ValidatorPool(ValidatorConfig config, ValidationObserver observer) {
        this.config = config;
        this.observer = observer;
        this.perThread = ThreadLocal.withInitial(this::newValidator);
    }

    /** Validates with the calling thread's validator and tells the observer; see {@link BatchValidator#validate}. */
    public ValidatedRecords validate(ByteBuffer records, TopicValidationPolicy policy, long nowMs)
            throws RecordValidationException {
        long started = System.nanoTime();
        ValidatedRecords validated = perThread.get().validate(records, policy, nowMs);
        observer.validated(validated.batchCount(), validated.recompressedBatches(), System.nanoTime() - started);
        return validated;
    }

    /** The calling thread's validator; only that thread may use it. */
    public BatchValidator forCurrentThread() {
        return perThread.get();
    }

    private BatchValidator newValidator() {
        BatchValidator validator = new BatchValidator(config);
        created.add(validator);
        return validator;
    }

    @Override
    public void close() {
        for (BatchValidator validator : created) {
            validator.close();
        }
        created.clear();
    }
}
