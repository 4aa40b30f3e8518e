package io.sluice.cluster.controller;

import static io.sluice.cluster.state.PartitionState.NO_LEADER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.config.ClusterConfig;
import io.sluice.cluster.state.ClusterState;
import io.sluice.cluster.state.PartitionRef;
import io.sluice.cluster.state.PartitionState;
import io.sluice.cluster.state.TopicState;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * {@link ReplicationControl} under random histories of leaves, joins, bounces, AlterPartition (current and stale),
 * controlled shutdowns, elections and rebalances, checked after every step against invariants: the leader is live
 * and in the ISR or there is none, the ISR is a non-empty duplicate-free subset of the replicas, every change bumps
 * the partition epoch (and nothing else does), leader epochs never go back and move with every leader change, and
 * without unclean election a new leader always comes from the previous ISR.
 */
class ReplicationControlPropertiesTest {
    static final int BROKERS = 5;

    enum Kind {
        LEAVE,
        JOIN,
        BOUNCE,
        ALTER,
        STALE_ALTER,
        SHUTDOWN,
        PREFERRED,
        UNCLEAN_ELECTION,
        REBALANCE
    }

    /** One step: what, on which broker or partition, and a seed for the proposed ISR. */
    record Step(Kind kind, int broker, int partition, int seed) {}

    @Provide
    Arbitrary<List<Step>> histories() {
        Arbitrary<Step> step = Combinators.combine(
                        Arbitraries.of(Kind.class),
                        Arbitraries.integers().between(1, BROKERS),
                        Arbitraries.integers().between(0, 7),
                        Arbitraries.integers().between(0, 1 << 10))
                .as(Step::new);
        return step.list().ofMinSize(1).ofMaxSize(60);
    }

    @Provide
    Arbitrary<int[][]> assignments() {
        Arbitrary<int[]> replicas = Arbitraries.integers()
                .between(1, BROKERS)
                .set()
                .ofMinSize(1)
                .ofMaxSize(3)
                .map(s -> s.stream().mapToInt(Integer::intValue).toArray());
        return replicas.array(int[][].class).ofMinSize(8).ofMaxSize(8);
    }

    @Property(tries = 300)
    void invariantsHoldAfterEveryStepWithCleanElection(
            @ForAll("assignments") int[][] replicas, @ForAll("histories") List<Step> history) {
        run(false, replicas, history);
    }

    @Property(tries = 200)
    void invariantsHoldAfterEveryStepWithUncleanElection(
            @ForAll("assignments") int[][] replicas, @ForAll("histories") List<Step> history) {
        run(true, replicas, history);
    }

    private static void run(boolean unclean, int[][] replicas, List<Step> history) {
        ClusterConfig config = ClusterConfig.defaults()
                .withUncleanLeaderElectionEnable(unclean)
                .withLeaderImbalancePerBrokerPercentage(0);
        ReplicationModel m =
                new ReplicationModel(config, List.of(1, 2, 3, 4, 5), ReplicationModel.topic("t", Map.of(), replicas));
        for (Step s : history) {
            ClusterState before = m.state;
            boolean explicitUnclean = apply(m, s);
            check(before, m.state, unclean || explicitUnclean, s);
        }
    }

    /** Applies {@code s}; true when it is an explicit unclean election. */
    private static boolean apply(ReplicationModel m, Step s) {
        boolean live = m.state.hasBroker(s.broker());
        switch (s.kind()) {
            case LEAVE -> {
                if (live) {
                    m.leave(s.broker());
                }
            }
            case JOIN -> {
                if (!live) {
                    m.join(s.broker());
                }
            }
            case BOUNCE -> {
                if (live) {
                    m.bounce(s.broker());
                }
            }
            case ALTER, STALE_ALTER -> alter(m, s);
            case SHUTDOWN -> m.controlledShutdown(s.broker());
            case PREFERRED -> m.elect(ElectionType.PREFERRED, new PartitionRef("t", s.partition()));
            case UNCLEAN_ELECTION -> {
                m.elect(ElectionType.UNCLEAN, new PartitionRef("t", s.partition()));
                return true;
            }
            case REBALANCE -> m.rebalance();
            default -> throw new AssertionError(s);
        }
        return false;
    }

    /** The leader proposes itself plus a seed-chosen subset of the replicas (some perhaps dead). */
    private static void alter(ReplicationModel m, Step s) {
        PartitionState ps = m.partition("t", s.partition());
        if (ps.isOffline()) {
            return;
        }
        List<Integer> isr = new ArrayList<>(List.of(ps.leader()));
        for (int i = 0; i < ps.replicas().length; i++) {
            int r = ps.replicas()[i];
            if (r != ps.leader() && (s.seed() >> i & 1) != 0) {
                isr.add(r);
            }
        }
        int[] proposed = isr.stream().mapToInt(Integer::intValue).toArray();
        boolean stale = s.kind() == Kind.STALE_ALTER;
        int partitionEpoch = stale ? ps.partitionEpoch() - 1 - (s.seed() & 1) : ps.partitionEpoch();
        IsrChangeRequest req =
                new IsrChangeRequest(m.id("t"), s.partition(), ps.leaderEpoch(), partitionEpoch, proposed);
        AlterPartitionResult r = m.alterPartition(ps.leader(), req).get(0);
        if (stale) {
            assertEquals(ReplicationError.INVALID_UPDATE_VERSION, r.error(), req.toString());
            assertTrue(m.lastDelta.isEmpty());
        } else {
            boolean allLive = isr.stream().allMatch(id -> m.state.hasBroker(id) && !m.state.isShuttingDown(id));
            assertEquals(
                    allLive ? ReplicationError.NONE : ReplicationError.INELIGIBLE_REPLICA,
                    r.error(),
                    req + " against " + ps);
        }
    }

    private static void check(ClusterState before, ClusterState after, boolean uncleanAllowed, Step s) {
        TopicState was = before.topic("t");
        TopicState now = after.topic("t");
        for (int p = 0; p < now.partitionCount(); p++) {
            PartitionState a = was.partition(p);
            PartitionState b = now.partition(p);
            String where = s + " partition " + p + ": " + a + " -> " + b;
            assertTrue(b.isr().length > 0, where);
            assertEquals(b.isr().length, Arrays.stream(b.isr()).distinct().count(), "no duplicates: " + where);
            for (int id : b.isr()) {
                assertTrue(b.hasReplica(id), "ISR within the replicas: " + where);
            }
            if (!b.isOffline()) {
                assertTrue(b.inIsr(b.leader()), "leader in the ISR: " + where);
                assertTrue(after.hasBroker(b.leader()), "leader live: " + where);
            }
            boolean changed = !a.equals(b.with(a.leader(), a.leaderEpoch(), a.isr(), a.partitionEpoch()))
                    || b.partitionEpoch() != a.partitionEpoch();
            if (changed) {
                assertEquals(a.partitionEpoch() + 1, b.partitionEpoch(), "one epoch per change: " + where);
            }
            assertTrue(b.leaderEpoch() >= a.leaderEpoch(), where);
            if (b.leader() != a.leader()) {
                assertTrue(b.leaderEpoch() > a.leaderEpoch(), "leader change bumps the leader epoch: " + where);
            }
            if (!uncleanAllowed && b.leader() != a.leader() && !b.isOffline()) {
                assertTrue(a.inIsr(b.leader()), "clean election picks from the previous ISR: " + where);
            }
            assertFalse(b.leader() != NO_LEADER && !b.hasReplica(b.leader()), where);
        }
    }
}
