package io.sluice.log.producer;

import static io.sluice.record.batch.RecordBatchDescriptor.NO_PRODUCER_EPOCH;
import static io.sluice.record.batch.RecordBatchDescriptor.NO_SEQUENCE;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * One idempotent producer's state in one partition: its epoch and its last {@link ProducerStateManager#BATCHES_RETAINED}
 * batches. Not thread-safe; guarded by the partition's append lock.
 */
public final class ProducerEntry {
    private final long producerId;
    private short epoch;
    private long lastTimestamp;
    private final Deque<BatchMetadata> batches = new ArrayDeque<>(ProducerStateManager.BATCHES_RETAINED);

    public ProducerEntry(long producerId, short epoch, long lastTimestamp) {
        this.producerId = producerId;
        this.epoch = epoch;
        this.lastTimestamp = lastTimestamp;
    }

    /** A producer never seen: no epoch, so any sequence is accepted. */
    public static ProducerEntry unknown(long producerId) {
        return new ProducerEntry(producerId, NO_PRODUCER_EPOCH, -1);
    }

    /** Same producer and epoch, no batches: the scratch entry of one append request (Kafka's updatedEntry). */
    ProducerEntry emptyCopy() {
        return new ProducerEntry(producerId, epoch, lastTimestamp);
    }

    public long producerId() {
        return producerId;
    }

    public short epoch() {
        return epoch;
    }

    public long lastTimestamp() {
        return lastTimestamp;
    }

    public boolean isEmpty() {
        return batches.isEmpty();
    }

    public Iterable<BatchMetadata> batches() {
        return batches;
    }

    public int batchCount() {
        return batches.size();
    }

    public int lastSeq() {
        return batches.isEmpty() ? NO_SEQUENCE : batches.peekLast().lastSeq();
    }

    public long lastDataOffset() {
        return batches.isEmpty() ? -1 : batches.peekLast().lastOffset();
    }

    /** A new epoch forgets the batches of the old one. */
    void maybeUpdateEpoch(short newEpoch) {
        if (epoch != newEpoch) {
            batches.clear();
            epoch = newEpoch;
        }
    }

    void addBatch(short batchEpoch, BatchMetadata batch) {
        maybeUpdateEpoch(batchEpoch);
        batches.addLast(batch);
        while (batches.size() > ProducerStateManager.BATCHES_RETAINED) {
            batches.removeFirst();
        }
        lastTimestamp = Math.max(lastTimestamp, batch.timestamp());
    }

    /** Merges the batches validated in one append request into this entry. */
    void update(ProducerEntry next) {
        maybeUpdateEpoch(next.epoch);
        for (BatchMetadata batch : next.batches) {
            addBatch(next.epoch, batch);
        }
        lastTimestamp = Math.max(lastTimestamp, next.lastTimestamp);
    }

    /** The cached batch with exactly this epoch and sequence range, or null. */
    public BatchMetadata findDuplicate(short batchEpoch, int firstSeq, int lastSeq) {
        if (batchEpoch != epoch) {
            return null;
        }
        for (BatchMetadata batch : batches) {
            if (batch.firstSeq() == firstSeq && batch.lastSeq() == lastSeq) {
                return batch;
            }
        }
        return null;
    }
}
