package io.sluice.codec.endpoint;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MembershipViewTest {
    private static final int K = 10;

    private static Endpoint node(int i) {
        return Endpoint.of("10.1." + (i / 250) + "." + (i % 250), 5000 + i % 7);
    }

    /** Reference: ring k is the member list sorted by seeded hash, then bytes. */
    private static List<Endpoint> referenceRing(Set<Endpoint> members, int k) {
        List<Endpoint> ring = new ArrayList<>(members);
        ring.sort(Comparator.<Endpoint>comparingLong(e -> e.seededHash(k)).thenComparing(Comparator.naturalOrder()));
        return ring;
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
