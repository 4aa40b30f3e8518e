package io.sluice.it.cluster;

import io.sluice.testkit.SluiceBrokerProcess;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.ProduceResponse;

/**
 * A partition leader frozen with SIGSTOP, with produce requests for the partition written to its sockets while it is
 * frozen: one acks=1 and one acks=all batch, each over its own connection opened before the freeze. The kernel holds
 * them; when the broker resumes it handles them at once, before it has learned that another replica took over — the
 * "zombie" leader appends them in its old leader epoch. {@link #thaw()} resumes it.
 *
 * <p>Not thread-safe; driven by the test thread. {@link #close()} resumes the broker if still frozen.
 */
final class FrozenLeader implements AutoCloseable {
    static final int RECORDS_PER_REQUEST = 3;
    /** The acks=all request's own timeout: longer than the freeze, so only the broker can end it. */
    private static final int PRODUCE_TIMEOUT_MS = 120_000;

    private static final Duration READ_TIMEOUT = Duration.ofMillis(PRODUCE_TIMEOUT_MS + 30_000);
    private static final short ACKS_LEADER = 1;
    private static final short ACKS_ALL = -1;

    private final SluiceBrokerProcess broker;
    private final RawConnection acksOne;
    private final RawConnection acksAll;
    private final List<String> acksOneKeys;
    private final List<String> acksAllKeys;

    private FrozenLeader(SluiceBrokerProcess broker, RawConnection acksOne, RawConnection acksAll, String tag) {
        this.broker = broker;
        this.acksOne = acksOne;
        this.acksAll = acksAll;
        this.acksOneKeys = keys(tag + "-acks1");
        this.acksAllKeys = keys(tag + "-acksall");
    }

    /** Opens the connections, freezes {@code broker}, then writes both produce requests for {@code topic}. */
    static FrozenLeader freeze(SluiceBrokerProcess broker, String topic, String tag) throws IOException {
        RawConnection one = RawConnection.open(broker.bootstrap(), READ_TIMEOUT);
        RawConnection all = null;
        try {
            all = RawConnection.open(broker.bootstrap(), READ_TIMEOUT);
            FrozenLeader frozen = new FrozenLeader(broker, one, all, tag);
            broker.pause();
            one.send(
                    ReplicationRequests.produce(topic, ACKS_LEADER, PRODUCE_TIMEOUT_MS, frozen.acksOneKeys),
                    ApiKeys.PRODUCE,
                    ReplicationRequests.PRODUCE_VERSION);
            all.send(
                    ReplicationRequests.produce(topic, ACKS_ALL, PRODUCE_TIMEOUT_MS, frozen.acksAllKeys),
                    ApiKeys.PRODUCE,
                    ReplicationRequests.PRODUCE_VERSION);
            return frozen;
        } catch (IOException | RuntimeException e) {
            broker.resume();
            one.close();
            if (all != null) {
                all.close();
            }
            throw e;
        }
    }

    /** Keys of every record written to the frozen broker. */
    List<String> keys() {
        List<String> keys = new ArrayList<>(acksOneKeys);
        keys.addAll(acksAllKeys);
        return keys;
    }

    /** Resumes the broker and reads its answer to the acks=1 request, which it gives as soon as it appended. */
    ProduceResponseData.PartitionProduceResponse thaw() throws IOException {
        broker.resume();
        ProduceResponse one = acksOne.receive();
        return ReplicationRequests.partition(one);
    }

    /** After {@link #thaw()}: the answer to the acks=all request, which waits for the high watermark or a role change. */
    ProduceResponseData.PartitionProduceResponse acksAllAnswer() throws IOException {
        ProduceResponse all = acksAll.receive();
        return ReplicationRequests.partition(all);
    }

    private static List<String> keys(String prefix) {
        return IntStream.range(0, RECORDS_PER_REQUEST)
                .mapToObj(i -> prefix + "-" + i)
                .toList();
    }

    @Override
    public void close() throws IOException {
        try {
            broker.resume();
        } finally {
            acksOne.close();
            acksAll.close();
        }
    }
}
