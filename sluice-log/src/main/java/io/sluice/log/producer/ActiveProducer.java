package io.sluice.log.producer;

/**
 * One idempotent producer of a partition as DescribeProducers reports it, copied out of the producer state under the
 * log's lock. Immutable; safe to share.
 *
 * @param producerId    the producer id
 * @param epoch         its current epoch
 * @param lastSequence  the last sequence number it appended, -1 when none is remembered
 * @param lastTimestamp the max timestamp of its last batch, -1 when unknown
 */
public record ActiveProducer(long producerId, short epoch, int lastSequence, long lastTimestamp) {
    static ActiveProducer of(ProducerEntry entry) {
        return new ActiveProducer(entry.producerId(), entry.epoch(), entry.lastSeq(), entry.lastTimestamp());
    }
}
