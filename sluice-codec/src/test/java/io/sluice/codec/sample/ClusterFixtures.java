package io.sluice.codec.sample;

import io.sluice.codec.endpoint.Endpoint;
import io.sluice.codec.message.Message;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;

/** Sample messages of every cluster type. Stateless. */
public final class ClusterFixtures {
    private ClusterFixtures() {}

    public static PartitionState partitionState(Random rnd, int i) {
        return new PartitionState(
                new UUID(rnd.nextLong(), rnd.nextLong()),
                i,
                rnd.nextInt(1000),
                rnd.nextInt(1 << 20),
                1L << 33 | rnd.nextInt(),
                rnd.nextLong() >>> 2,
                new int[] {1, 2, 3 + i % 5},
                rnd.nextInt(1 << 30));
    }

    public static PartitionStateReport report(int partitions, long seed) {
        Random rnd = new Random(seed);
        List<PartitionState> states = new ArrayList<>();
        for (int i = 0; i < partitions; i++) {
            states.add(partitionState(rnd, i));
        }
        return new PartitionStateReport(7, 1234567890123L, 42, new PartitionStateList(states));
    }

    public static PartitionMap partitionMap(int brokers, int partitions, long seed) {
        Random rnd = new Random(seed);
        List<Endpoint> endpoints = new ArrayList<>();
        int[] ids = new int[brokers];
        for (int b = 0; b < brokers; b++) {
            endpoints.add(Endpoint.of("broker-" + b + ".sluice.internal", 9092 + b));
            ids[b] = b + 1;
        }
        List<PartitionAssignment> assignments = new ArrayList<>();
        UUID topic = new UUID(rnd.nextLong(), rnd.nextLong());
        for (int p = 0; p < partitions; p++) {
            if (p % 50 == 0) {
                topic = new UUID(rnd.nextLong(), rnd.nextLong());
            }
            int leader = brokers == 0 ? -1 : 1 + rnd.nextInt(brokers);
            assignments.add(new PartitionAssignment(
                    topic,
                    "topic-ü-" + (p / 50),
                    p % 50,
                    new int[] {leader, leader % 7 + 1, leader % 5 + 2},
                    leader,
                    rnd.nextInt(100),
                    new int[] {leader, leader % 7 + 1},
                    rnd.nextInt(1000)));
        }
        return new PartitionMap(3, 99L, endpoints, ids, assignments);
    }

    /** One message of every registered type, small enough to split at every byte. */
    public static List<Message> everyType() {
        Random rnd = new Random(1);
        List<Message> all = new ArrayList<>();
        all.add(partitionState(rnd, 3));
        all.add(new PartitionStateList(List.of(partitionState(rnd, 1), partitionState(rnd, 2))));
        all.add(report(3, 2));
        all.add(partitionMap(3, 4, 3).partitions.get(1));
        all.add(partitionMap(3, 4, 3));
        all.add(new FullPartitionMap(5, partitionMap(2, 3, 4)));
        all.add(new StartMove(77, 4, new UUID(5, 6), 12, 1, 2, 9));
        all.add(new MoveChunkHeader(77, 9, 1_000_000L, 65536, 1 << 20, 0xCAFEBABE, true));
        all.add(new MoveChunkAck(77, 9, 1_000_000L, 131072));
        all.add(new MoveComplete(77, new UUID(5, 6), 12, 9, 2_000_000L));
        all.add(new MoveAbort(77, 9, MoveAbort.REASON_CHECKSUM, "crc mismatch at chunk 3 — 🙂"));
        return all;
    }
}
