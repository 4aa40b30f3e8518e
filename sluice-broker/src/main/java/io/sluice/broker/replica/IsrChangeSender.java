package io.sluice.broker.replica;

import io.sluice.broker.interbroker.ControllerChannel;
import io.sluice.broker.topic.Partition;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.AlterPartitionRequestData;
import org.apache.kafka.common.message.AlterPartitionResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the ISR changes this broker's led partitions propose to the controller as Kafka's AlterPartition, batching
 * whatever is proposed while a request is in flight into the next one. An accepted change is committed into the
 * partition's {@link LeaderState} at once (the published cluster state confirms it later); a refused one is dropped
 * and the leader proposes again from the state the controller publishes. A request that fails in transit is resent.
 *
 * <p>Thread-safe: proposals are queued under this object's lock; answers are applied on the controller channel's
 * thread.
 */
public final class IsrChangeSender {
    private static final Logger LOG = LoggerFactory.getLogger(IsrChangeSender.class);
    /** AlterPartition v2: topic ids and plain broker ids in the proposed ISR. */
    static final short ALTER_PARTITION_VERSION = 2;

    /** @param committedIsrSize the ISR's size when the change was proposed, to tell a shrink from an expansion */
    record Proposal(Partition partition, LeaderState state, int[] isr, int committedIsrSize) {}

    private final int selfId;
    private final ControllerChannel channel;
    private final ScheduledExecutorService retryTimer;
    private final long retryBackoffMs;
    private final Map<Partition, Proposal> queued = new LinkedHashMap<>();
    private boolean inFlight;
    private volatile IsrChangeListener listener = IsrChangeListener.NONE;

    public IsrChangeSender(
            int selfId, ControllerChannel channel, ScheduledExecutorService retryTimer, long retryBackoffMs) {
        this.selfId = selfId;
        this.channel = channel;
        this.retryTimer = retryTimer;
        this.retryBackoffMs = retryBackoffMs;
    }

    /** Who is told about accepted ISR changes (the broker's IsrShrinksPerSec and IsrExpandsPerSec). */
    public void listenWith(IsrChangeListener isrChangeListener) {
        this.listener = isrChangeListener;
    }

    /**
     * Queues {@code isr} (already recorded as the change in flight in {@code state}, the very array it returned: the
     * answer ends that change only) for the controller.
     */
    public void propose(Partition partition, LeaderState state, int[] isr) {
        int committedIsrSize = state.isr().length;
        synchronized (this) {
            queued.put(partition, new Proposal(partition, state, isr, committedIsrSize));
        }
        sendQueued();
    }

    private void sendQueued() {
        List<Proposal> batch;
        AlterPartitionRequestData request;
        synchronized (this) {
            if (inFlight || queued.isEmpty()) {
                return;
            }
            batch = new ArrayList<>(queued.values());
            queued.clear();
            request = request(selfId, batch);
            if (batch.isEmpty()) {
                return;
            }
            inFlight = true;
        }
        // Every outcome is handled here, and the sender is always freed for the next batch.
        var unused = channel.send(
                        ApiKeys.ALTER_PARTITION,
                        ALTER_PARTITION_VERSION,
                        request,
                        readable -> new AlterPartitionResponseData(readable, ALTER_PARTITION_VERSION))
                .whenComplete((response, failure) -> {
                    if (failure != null || Errors.forCode(response.errorCode()) != Errors.NONE) {
                        String why = failure != null
                                ? failure.getMessage()
                                : Errors.forCode(response.errorCode()).name();
                        LOG.info(
                                "AlterPartition for {} partitions failed ({}); resending in {} ms",
                                batch.size(),
                                why,
                                retryBackoffMs);
                        requeue(batch);
                    } else {
                        try {
                            applyAnswers(batch, response);
                        } catch (RuntimeException e) {
                            LOG.error("Applying the AlterPartition answer for {} partitions failed", batch.size(), e);
                        } finally {
                            finished();
                        }
                    }
                });
    }

    /**
     * The AlterPartition request for {@code batch}, from which it removes the proposals no longer in flight: the
     * published state committed a newer ISR since (queued behind a request in flight, or waiting to be resent after a
     * failure), or the change was abandoned. Each proposal carries the partition epoch it was computed against, never
     * a newer one, so a stale ISR cannot pass the controller's epoch check and undo a change made since (such as a
     * bounced broker's removal).
     */
    static AlterPartitionRequestData request(int selfId, List<Proposal> batch) {
        AlterPartitionRequestData request =
                new AlterPartitionRequestData().setBrokerId(selfId).setBrokerEpoch(-1);
        Map<Uuid, AlterPartitionRequestData.TopicData> topics = new LinkedHashMap<>();
        for (java.util.Iterator<Proposal> it = batch.iterator(); it.hasNext(); ) {
            Proposal p = it.next();
            int baseEpoch = p.state().pendingBaseEpoch(p.isr());
            if (baseEpoch < 0) {
                LOG.info(
                        "{}: ISR {} is no longer the change in flight (now {}); not sent",
                        p.partition(),
                        java.util.Arrays.toString(p.isr()),
                        java.util.Arrays.toString(p.state().isr()));
                it.remove();
                continue;
            }
            List<Integer> isr = new ArrayList<>(p.isr().length);
            for (int id : p.isr()) {
                isr.add(id);
            }
            topics.computeIfAbsent(p.partition().topic().id(), id -> {
                        AlterPartitionRequestData.TopicData t =
                                new AlterPartitionRequestData.TopicData().setTopicId(id);
                        request.topics().add(t);
                        return t;
                    })
                    .partitions()
                    .add(new AlterPartitionRequestData.PartitionData()
                            .setPartitionIndex(p.partition().index())
                            .setLeaderEpoch(p.state().leaderEpoch())
                            .setPartitionEpoch(baseEpoch)
                            .setNewIsr(isr));
        }
        return request;
    }

    private void requeue(List<Proposal> batch) {
        synchronized (this) {
            for (Proposal p : batch) {
                queued.putIfAbsent(p.partition(), p);
            }
            inFlight = false;
        }
        var unused = retryTimer.schedule(
                () -> {
                    try {
                        sendQueued();
                    } catch (RuntimeException e) {
                        // Not lost in the timer's future: an ISR change that cannot be sent is worth an error line.
                        LOG.error("Sending the queued AlterPartition failed", e);
                    }
                },
                retryBackoffMs,
                TimeUnit.MILLISECONDS);
    }

    private void finished() {
        synchronized (this) {
            inFlight = false;
        }
        sendQueued();
    }

    private void applyAnswers(List<Proposal> batch, AlterPartitionResponseData response) {
        Map<Uuid, Map<Integer, AlterPartitionResponseData.PartitionData>> answers = new LinkedHashMap<>();
        for (AlterPartitionResponseData.TopicData topic : response.topics()) {
            for (AlterPartitionResponseData.PartitionData data : topic.partitions()) {
                answers.computeIfAbsent(topic.topicId(), k -> new LinkedHashMap<>())
                        .put(data.partitionIndex(), data);
            }
        }
        for (Proposal p : batch) {
            Map<Integer, AlterPartitionResponseData.PartitionData> ofTopic =
                    answers.get(p.partition().topic().id());
            applyAnswer(
                    p.partition(),
                    p.state(),
                    p.isr(),
                    p.committedIsrSize(),
                    ofTopic == null ? null : ofTopic.get(p.partition().index()));
        }
    }

    /**
     * Applies the controller's answer ({@code null}: none came) to the ISR change {@code proposedIsr} of one
     * partition. Only that change is ended: one proposed after it (the published state committed it first) stays
     * in flight.
     */
    void applyAnswer(
            Partition partition,
            LeaderState state,
            int[] proposedIsr,
            int committedIsrSize,
            AlterPartitionResponseData.PartitionData answer) {
        if (answer == null) {
            state.abandonPending(proposedIsr);
            // The maximal ISR shrank back: the high watermark may move now, not at the next append.
            partition.maybeAdvanceHighWatermark();
            return;
        }
        Errors error = Errors.forCode(answer.errorCode());
        if (error == Errors.NONE && answer.leaderEpoch() == state.leaderEpoch()) {
            int[] isr = answer.isr().stream().mapToInt(Integer::intValue).toArray();
            // Accepted, whether this answer or the published state brings it to the partition first.
            listener.onIsrChanged(committedIsrSize, isr.length);
            if (state.commit(isr, answer.partitionEpoch())) {
                LOG.info("{}: ISR is now {} (partition epoch {})", partition, answer.isr(), answer.partitionEpoch());
            } else {
                // The published state got there first; it already holds this change or a later one. A change
                // proposed since stays in flight (and counted in the maximal ISR) until its own answer.
                state.abandonPending(proposedIsr);
            }
            partition.maybeAdvanceHighWatermark();
        } else if (error == Errors.NONE
                || error == Errors.FENCED_LEADER_EPOCH
                || error == Errors.INVALID_UPDATE_VERSION) {
            // The partition moved on (a new leader epoch: a reassignment completed with this change, another
            // leader was elected) or this leader's view is stale: as Kafka's leader, keep counting the proposed
            // ISR for the high watermark until the published state replaces this leader's state. Dropping it
            // here would let the high watermark pass what a replica about to lead holds, and acknowledged
            // records would be lost when it takes over.
            LOG.info(
                    "{}: ISR {} answered {} in leader epoch {} (this leader's is {}); waiting for the published "
                            + "state",
                    partition,
                    java.util.Arrays.toString(proposedIsr),
                    error,
                    answer.leaderEpoch(),
                    state.leaderEpoch());
            if (error != Errors.NONE) {
                listener.onIsrChangeFailed();
            }
        } else {
            LOG.info("{}: controller refused ISR {}: {}", partition, java.util.Arrays.toString(proposedIsr), error);
            listener.onIsrChangeFailed();
            state.abandonPending(proposedIsr);
            // The maximal ISR shrank back to the committed one: the high watermark may move now.
            partition.maybeAdvanceHighWatermark();
        }
    }
}
