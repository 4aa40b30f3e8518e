package io.sluice.bench.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.codec.endpoint.Endpoint;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class MembershipViewTest {
    private static final int K = 10;

    private static Endpoint node(int i) {
        return Endpoint.of("10.1." + (i / 250) + "." + (i % 250), 5000 + i % 7);
    }

    /** Reference: ring k is the member list sorted by seeded hash, then bytes. */
    private static List<Endpoint> referenceRing(Set<Endpoint> members, int k) {
        return referenceRing(members, k, -1L);
    }

    /** Reference under a ring-hash mask: sorted by the masked seeded hash, then bytes. */
    private static List<Endpoint> referenceRing(Set<Endpoint> members, int k, long mask) {
        List<Endpoint> ring = new ArrayList<>(members);
        ring.sort(Comparator.<Endpoint>comparingLong(e -> e.seededHash(k) & mask)
                .thenComparing(Comparator.naturalOrder()));
        return ring;
    }

    /**
     * Checks the view's structure, size, every ring's order and every member's observer and subject against the
     * reference, plus the would-be observer and subject of each of {@code outsiders} that is not a member.
     */
    private static void assertMatchesReference(
            MembershipView view, Set<Endpoint> reference, long mask, List<Endpoint> outsiders) {
        view.checkStructure();
        assertEquals(reference.size(), view.size());
        for (int k = 0; k < view.ringCount(); k++) {
            List<Endpoint> ring = referenceRing(reference, k, mask);
            assertEquals(ring, view.ring(k), "ring " + k);
            int n = ring.size();
            for (int i = 0; i < n && n > 1; i++) {
                Endpoint e = ring.get(i);
                assertEquals(ring.get((i + 1) % n), view.observer(e, k), "observer in ring " + k);
                assertEquals(ring.get((i - 1 + n) % n), view.subject(e, k), "subject in ring " + k);
            }
            final int ringIndex = k;
            Comparator<Endpoint> order = Comparator.<Endpoint>comparingLong(x -> x.seededHash(ringIndex) & mask)
                    .thenComparing(Comparator.naturalOrder());
            for (Endpoint o : outsiders) {
                if (reference.contains(o) || n == 0) {
                    continue;
                }
                Endpoint after = ring.stream()
                        .filter(x -> order.compare(x, o) > 0)
                        .findFirst()
                        .orElse(ring.get(0));
                Endpoint before = ring.stream()
                        .filter(x -> order.compare(x, o) < 0)
                        .reduce((a, b) -> b)
                        .orElse(ring.get(n - 1));
                assertEquals(after, view.observer(o, k), "a joiner's observer in ring " + k);
                assertEquals(before, view.subject(o, k), "a joiner's subject in ring " + k);
            }
        }
    }

    /** Random adds and removes over {@code universe} endpoints, checking against the reference every few ops. */
    private static void churn(
            MembershipView view,
            Set<Endpoint> reference,
            long mask,
            Random random,
            int ops,
            int universe,
            int addPercent,
            int checkEvery) {
        List<Endpoint> outsiders = List.of(node(universe), node(universe + 1), node(universe + 2));
        for (int op = 1; op <= ops; op++) {
            Endpoint e = node(random.nextInt(universe));
            if (random.nextInt(100) < addPercent) {
                assertEquals(reference.add(e), view.add(e));
            } else {
                assertEquals(reference.remove(e), view.remove(e));
            }
            if (op % checkEvery == 0) {
                assertMatchesReference(view, reference, mask, outsiders);
            }
        }
        assertMatchesReference(view, reference, mask, outsiders);
    }

    @Property(tries = 60)
    void shouldMatchASortedListReferenceUnderAnyAddRemoveSequence(
            @ForAll @Size(max = 300) List<@IntRange(min = 0, max = 400) Integer> ops) {
        MembershipView view = new MembershipView(K);
        Set<Endpoint> reference = new HashSet<>();
        for (int op : ops) {
            Endpoint e = node(op % 200);
            boolean add = op < 250;
            assertEquals(add ? reference.add(e) : reference.remove(e), add ? view.add(e) : view.remove(e));
        }
        assertEquals(reference.size(), view.size());
        for (int k = 0; k < K; k += 3) {
            List<Endpoint> ring = referenceRing(reference, k);
            assertEquals(ring, view.ring(k));
            for (int i = 0; i < ring.size() && ring.size() > 1; i++) {
                Endpoint e = ring.get(i);
                assertEquals(ring.get((i + 1) % ring.size()), view.observer(e, k));
                assertEquals(ring.get((i - 1 + ring.size()) % ring.size()), view.subject(e, k));
            }
        }
    }

    @Property(tries = 15)
    void shouldMatchTheReferenceUnderLongChurnThatSplitsAndMergesBlocks(@ForAll long seed) {
        Random random = new Random(seed);
        MembershipView view = new MembershipView(3);
        Set<Endpoint> reference = new HashSet<>();
        int universe = RingBlocks.LEAF_KEYS * 12;
        churn(view, reference, -1L, random, 3000, universe, 75, 97);
        churn(view, reference, -1L, random, 3000, universe, 50, 89);
        churn(view, reference, -1L, random, 3000, universe, 25, 83);
        for (Endpoint e : new ArrayList<>(reference)) {
            assertTrue(view.remove(e));
            reference.remove(e);
            if (reference.size() <= 2) {
                assertMatchesReference(view, reference, -1L, List.of(node(0), node(1)));
            }
        }
        assertEquals(0, view.size());
        assertEquals(3, view.blocksInUse(), "an empty view keeps one empty leaf per ring");
        churn(view, reference, -1L, random, 1000, universe, 60, 101);
    }

    @Test
    void shouldOrderEqualRingHashesByEndpointBytes() {
        // 0: one hash, bytes decide; 1 and 7: equal stored prefixes, full hashes then bytes decide; the last: both
        for (long mask : new long[] {0L, 1L, 0x7L, 0x3_0000_0001L}) {
            MembershipView view = new MembershipView(4, mask);
            Set<Endpoint> reference = new HashSet<>();
            Random random = new Random(mask);
            churn(view, reference, mask, random, 4000, RingBlocks.LEAF_KEYS * 8, 70, 211);
            churn(view, reference, mask, random, 4000, RingBlocks.LEAF_KEYS * 8, 30, 211);
        }
    }

    @Test
    void shouldFindObserversAndSubjectsAcrossBlockBoundariesAndTheWrap() {
        MembershipView view = new MembershipView(2);
        Set<Endpoint> reference = new HashSet<>();
        List<Endpoint> outsiders = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            outsiders.add(node(100_000 + i));
        }
        for (int i = 0; i < RingBlocks.LEAF_KEYS * 40; i++) {
            view.add(node(i));
            reference.add(node(i));
            int n = reference.size();
            if (n <= 2 || n == RingBlocks.LEAF_KEYS || n == RingBlocks.LEAF_KEYS + 1 || n % 331 == 0) {
                assertMatchesReference(view, reference, -1L, outsiders);
            }
        }
        assertTrue(view.ringHeight(0) >= 1, "blocks below a root");
        assertMatchesReference(view, reference, -1L, outsiders);
    }

    @Test
    void shouldKeepBlockCountProportionalToMembersUnderChurn() {
        int rings = 2;
        MembershipView view = new MembershipView(rings);
        Random random = new Random(42);
        int universe = RingBlocks.LEAF_KEYS * 20;
        Set<Endpoint> reference = new HashSet<>();
        for (int cycle = 0; cycle < 6; cycle++) {
            for (int op = 0; op < 20_000; op++) {
                Endpoint e = node(random.nextInt(universe));
                if (random.nextBoolean()) {
                    view.add(e);
                    reference.add(e);
                } else {
                    view.remove(e);
                    reference.remove(e);
                }
                int leafBound = reference.size() / RingForest.LEAF_MIN + 1;
                assertTrue(
                        view.blocksInUse() <= rings * 2 * leafBound,
                        view.blocksInUse() + " blocks for " + reference.size() + " members");
            }
            view.checkStructure();
            for (Endpoint e : reference) {
                view.remove(e);
            }
            reference.clear();
            view.checkStructure();
            assertEquals(rings, view.blocksInUse(), "blocks left after draining, cycle " + cycle);
        }
    }

    @Test
    void shouldGrowAndShrinkThroughSeveralInnerLevels() {
        MembershipView view = new MembershipView(1);
        int n = 120_000;
        List<Endpoint> members = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            members.add(node(i));
            assertTrue(view.add(members.get(i)));
        }
        view.checkStructure();
        assertTrue(view.ringHeight(0) >= 3, "height " + view.ringHeight(0));
        Collections.shuffle(members, new Random(7));
        for (int i = 0; i < n; i++) {
            assertTrue(view.remove(members.get(i)));
            if (i % 20_000 == 0 || n - i <= 3) {
                view.checkStructure();
            }
        }
        assertEquals(0, view.ringHeight(0));
        assertEquals(1, view.blocksInUse());
    }

    @Test
    void shouldHoldThousandsWithKObserversAndSubjectsEach() {
        MembershipView view = new MembershipView(K);
        for (int i = 0; i < 5000; i++) {
            assertTrue(view.add(node(i * 7 + 1)));
        }
        assertEquals(5000, view.size());
        Endpoint n = node(8);
        assertEquals(K, view.observersOf(n).size());
        assertEquals(K, view.subjectsOf(n).size());
        for (int k = 0; k < K; k++) {
            Endpoint o = view.observer(n, k);
            assertEquals(n, view.subject(o, k), "observer's subject in the same ring is the node itself");
        }
        Endpoint outsider = node(2);
        assertFalse(view.contains(outsider));
        assertEquals(K, view.observersOf(outsider).size(), "a joiner learns its would-be observers");
    }

    @Test
    void shouldChangeConfigurationIdWithMembershipAndIgnoreInsertionOrder() {
        MembershipView a = new MembershipView(3);
        MembershipView b = new MembershipView(3);
        Set<Long> ids = new HashSet<>();
        ids.add(a.configurationId());
        for (int i = 0; i < 100; i++) {
            a.add(node(i));
            assertTrue(ids.add(a.configurationId()), "new id after adding " + i);
        }
        for (int i = 99; i >= 0; i--) {
            b.add(node(i));
        }
        assertEquals(a.configurationId(), b.configurationId());
        long before = a.configurationId();
        a.remove(node(50));
        assertNotEquals(before, a.configurationId());
        a.add(node(50));
        assertEquals(before, a.configurationId());
    }

    @Test
    void shouldHaveNoObserverWhenAlone() {
        MembershipView view = new MembershipView(2);
        view.add(node(1));
        assertNull(view.observer(node(1), 0));
        assertTrue(view.subjectsOf(node(1)).isEmpty());
    }
}
