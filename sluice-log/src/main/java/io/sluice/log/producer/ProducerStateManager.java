package io.sluice.log.producer;

import static io.sluice.record.batch.RecordBatchDescriptor.NO_PRODUCER_EPOCH;
import static io.sluice.record.batch.RecordBatchDescriptor.NO_SEQUENCE;

import io.sluice.log.ProducerStateException;
import io.sluice.log.batch.BatchFraming;
import io.sluice.record.batch.RecordBatchView;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * Idempotent-producer state of one partition, with Kafka 3.9's rules (ProducerAppendInfo / UnifiedLog):
 * <ul>
 *   <li>a retry of one of the producer's last five batches (same epoch, same first and last sequence) is a
 *       duplicate: nothing is appended and the original offsets are returned;</li>
 *   <li>an epoch older than the current one → INVALID_PRODUCER_EPOCH;</li>
 *   <li>a newer epoch must start at sequence 0, unless the producer has no epoch yet → OUT_OF_ORDER_SEQUENCE_NUMBER;</li>
 *   <li>same epoch: the first sequence must follow the last one (wrapping at Integer.MAX_VALUE), unless the
 *       producer is unknown (no state, e.g. after retention removed its batches), which accepts any sequence;</li>
 *   <li>DUPLICATE_SEQUENCE_NUMBER is never returned: an old retry no longer cached is out of order, as in Kafka.</li>
 * </ul>
 * Not thread-safe; guarded by the partition's append lock.
 */
public final class ProducerStateManager {
    /** Batches remembered per producer: the Java producer keeps at most 5 in flight per partition. */
    public static final int BATCHES_RETAINED = 5;

    private final String partition;
    private final Map<Long, ProducerEntry> producers = new HashMap<>();
    private final Append reusableAppend = new Append();

    public ProducerStateManager(String partition) {
        this.partition = partition;
    }

    public ProducerEntry entry(long producerId) {
        return producers.get(producerId);
    }

    public Collection<ProducerEntry> entries() {
        return producers.values();
    }

    /** A copy of every tracked producer (DescribeProducers), in no particular order. */
    /** Producer id to the last offset of its last retained batch, for every producer with a batch. */
    public java.util.Map<Long, Long> lastBatchOffsets() {
        java.util.Map<Long, Long> offsets = new java.util.HashMap<>();
        for (ProducerEntry entry : producers.values()) {
            if (entry.lastDataOffset() >= 0) {
                offsets.put(entry.producerId(), entry.lastDataOffset());
            }
        }
        return offsets;
    }

    public java.util.List<ActiveProducer> activeProducers() {
        java.util.List<ActiveProducer> out = new java.util.ArrayList<>(producers.size());
        for (ProducerEntry entry : producers.values()) {
            out.add(ActiveProducer.of(entry));
        }
        return out;
    }

    public int producerCount() {
        return producers.size();
    }

    /** Replaces the state with a snapshot's. */
    public void loadSnapshot(java.nio.file.Path file) throws java.io.IOException {
        java.util.List<ProducerEntry> loaded = ProducerSnapshotFile.read(file);
        producers.clear();
        for (ProducerEntry entry : loaded) {
            producers.put(entry.producerId(), entry);
        }
    }

    public void writeSnapshot(java.nio.file.Path file) throws java.io.IOException {
        ProducerSnapshotFile.write(file, producers.values());
    }

    public void clear() {
        producers.clear();
    }

    /**
     * The cached batch this one retries, checked against the state before the request (as Kafka does), or null.
     */
    public BatchMetadata findDuplicate(RecordBatchView batch) {
        ProducerEntry entry = producers.get(batch.producerId());
        return entry == null
                ? null
                : entry.findDuplicate(batch.producerEpoch(), batch.baseSequence(), batch.lastSequence());
    }

    /** Validations of one append request; nothing changes until {@link #commit}. Not thread-safe; one per manager. */
    public final class Append {
        private final Map<Long, ProducerEntry> updated = new HashMap<>(4);

        /**
         * Validates a data or control batch that will get offsets {@code firstOffset..lastOffset}.
         */
        public void validate(RecordBatchView batch, long firstOffset, long lastOffset) throws ProducerStateException {
            long producerId = batch.producerId();
            ProducerEntry current = producers.get(producerId);
            if (current == null) {
                current = ProducerEntry.unknown(producerId);
            }
            ProducerEntry next = updated.get(producerId);
            if (next == null) {
                next = current.emptyCopy();
                updated.put(producerId, next);
            }
            short epoch = batch.producerEpoch();
            if (epoch < next.epoch()) {
                throw new ProducerStateException(
                        ProducerStateException.INVALID_PRODUCER_EPOCH,
                        "epoch of producer " + producerId + " at offset " + firstOffset + " in " + partition + " is "
                                + epoch + ", older than the last seen epoch " + next.epoch());
            }
            if (batch.isControl()) {
                next.maybeUpdateEpoch(epoch);
                return;
            }
            int firstSeq = batch.baseSequence();
            if (epoch != next.epoch()) {
                if (firstSeq != 0 && next.epoch() != NO_PRODUCER_EPOCH) {
                    throw new ProducerStateException(
                            ProducerStateException.OUT_OF_ORDER_SEQUENCE_NUMBER,
                            "invalid sequence number for new epoch of producer " + producerId + " at offset "
                                    + firstOffset + " in " + partition + ": " + epoch + " (request epoch), " + firstSeq
                                    + " (seq. number), " + next.epoch() + " (current producer epoch)");
                }
            } else {
                int currentLastSeq;
                if (!next.isEmpty()) {
                    currentLastSeq = next.lastSeq();
                } else if (epoch == current.epoch()) {
                    currentLastSeq = current.lastSeq();
                } else {
                    currentLastSeq = NO_SEQUENCE;
                }
                if (current.epoch() != NO_PRODUCER_EPOCH && !inSequence(currentLastSeq, firstSeq)) {
                    throw new ProducerStateException(
                            ProducerStateException.OUT_OF_ORDER_SEQUENCE_NUMBER,
                            "out of order sequence number for producer " + producerId + " at offset " + firstOffset
                                    + " in " + partition + ": " + firstSeq + " (incoming seq. number), "
                                    + currentLastSeq + " (current end sequence number)");
                }
            }
            next.addBatch(
                    epoch,
                    new BatchMetadata(
                            batch.lastSequence(), lastOffset, (int) (lastOffset - firstOffset), batch.maxTimestamp()));
        }

        /** Applies every validated batch; call once the bytes are in the log. */
        public void commit() {
            for (ProducerEntry next : updated.values()) {
                ProducerEntry current = producers.get(next.producerId());
                if (current == null) {
                    producers.put(next.producerId(), next);
                } else {
                    current.update(next);
                }
            }
        }
    }

    /** The validations of the next append request; one reused instance (the caller holds the append lock). */
    public Append beginAppend() {
        reusableAppend.updated.clear();
        return reusableAppend;
    }

    private static boolean inSequence(int lastSeq, int nextSeq) {
        return nextSeq == lastSeq + 1L || (nextSeq == 0 && lastSeq == Integer.MAX_VALUE);
    }

    /**
     * Applies a batch already in the log while rebuilding state (no validation, like Kafka's replication origin);
     * a batch with an older epoch than known is ignored.
     */
    public void replay(RecordBatchView batch) {
        if (!BatchFraming.hasProducerId(batch)) {
            return;
        }
        long producerId = batch.producerId();
        ProducerEntry entry = producers.computeIfAbsent(producerId, ProducerEntry::unknown);
        short epoch = batch.producerEpoch();
        if (epoch < entry.epoch()) {
            return;
        }
        if (batch.isControl()) {
            entry.maybeUpdateEpoch(epoch);
            return;
        }
        entry.addBatch(
                epoch,
                new BatchMetadata(
                        batch.lastSequence(), batch.lastOffset(), batch.lastOffsetDelta(), batch.maxTimestamp()));
    }

    /** Forgets producers whose last batch is older than {@code expirationMs} (producer.id.expiration.ms). */
    public int removeExpired(long nowMs, long expirationMs) {
        int before = producers.size();
        producers.values().removeIf(e -> nowMs - e.lastTimestamp() >= expirationMs);
        return before - producers.size();
    }

    /** Forgets producers with no batch left at or above the new log start offset, as Kafka does. */
    public void onLogStartOffsetIncremented(long logStartOffset) {
        producers.values().removeIf(e -> e.isEmpty() || e.lastDataOffset() < logStartOffset);
    }

    public String partition() {
        return partition;
    }
}
