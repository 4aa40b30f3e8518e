package io.sluice.broker.produce;

import io.sluice.record.validate.BatchValidator;
import io.sluice.record.validate.ValidatorConfig;
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

    public ValidatorPool(ValidatorConfig config) {
        this.config = config;
        this.perThread = ThreadLocal.withInitial(this::newValidator);
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
