package io.sluice.codec.endpoint;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The membership of a cluster as K rings (Rapid's monitoring topology): ring k orders the members by their hash under
 * seed k, and in each ring a member's observer is its successor and its subject its predecessor (wrapping around).
 * Insert and remove are O(K log N); each member's K ring hashes are computed once on insert, so ring comparisons are
 * long comparisons and never touch host bytes or strings. The configuration id is an order-independent sum of
 * per-member hashes, updated in O(1), so it changes with every membership change and equals across nodes with the
 * same members. Not thread-safe; one per membership service, driven by its single event thread.
 */
public final class MembershipView {
    /** Seed of the configuration-id hash; distinct from the ring seeds 0..K-1. */
    private static final long CONFIG_SEED = 0x5eed_c0f1_6a11_d00dL;

    private final int rings;
    private final List<TreeSet<Member>> ringSets;
    private final Map<Endpoint, Member> members = new HashMap<>();
    private long configSum;

    /** A member with its ring hashes, computed once. */
    private record Member(Endpoint endpoint, long[] ringHashes) {
    }

    public MembershipView(int rings) {
        if (rings < 1) {
            throw new IllegalArgumentException("rings must be >= 1, was " + rings);
        }
        this.rings = rings;
        this.ringSets = new ArrayList<>(rings);
        for (int k = 0; k < rings; k++) {
            final int ring = k;
            ringSets.add(new TreeSet<>((a, b) -> {
                int c = Long.compare(a.ringHashes[ring], b.ringHashes[ring]);
                return c != 0 ? c : a.endpoint.compareTo(b.endpoint);
            }));
        }
    }

    public int ringCount() {
        return rings;
    }

    public int size() {
        return members.size();
    }

    public boolean contains(Endpoint e) {
        return members.containsKey(e);
    }

    /** Adds {@code e}; false if already a member. */
    public boolean add(Endpoint e) {
        if (members.containsKey(e)) {
            return false;
        }
        Member m = member(e);
        members.put(e, m);
        for (int k = 0; k < rings; k++) {
            ringSets.get(k).add(m);
        }
        configSum += SeededHash.mix(e.seededHash(CONFIG_SEED));
        return true;
    }

    /** Removes {@code e}; false if not a member. */
    public boolean remove(Endpoint e) {
        Member m = members.remove(e);
        if (m == null) {
            return false;
        }
        for (int k = 0; k < rings; k++) {
            ringSets.get(k).remove(m);
        }
        configSum -= SeededHash.mix(e.seededHash(CONFIG_SEED));
        return true;
    }

    private Member member(Endpoint e) {
        long[] hashes = new long[rings];
        for (int k = 0; k < rings; k++) {
            hashes[k] = e.seededHash(k);
        }
        return new Member(e, hashes);
    }

    /** Identifies this exact member set; changes with every add and remove. */
    public long configurationId() {
        return SeededHash.mix(configSum ^ members.size());
    }

    /** The observer of {@code e} in ring {@code k}: its successor, wrapping; null if the view has under 2 members. */
    public Endpoint observer(Endpoint e, int k) {
        Member m = lookup(e);
        if (members.size() < 2 && members.containsKey(e) || members.isEmpty()) {
            return null;
        }
        TreeSet<Member> ring = ringSets.get(k);
        Member next = ring.higher(m);
        return (next != null ? next : ring.first()).endpoint;
    }

    /** The subject of {@code e} in ring {@code k}: its predecessor, wrapping; null if the view has under 2 members. */
    public Endpoint subject(Endpoint e, int k) {
        Member m = lookup(e);
        if (members.size() < 2 && members.containsKey(e) || members.isEmpty()) {
            return null;
        }
        TreeSet<Member> ring = ringSets.get(k);
        Member prev = ring.lower(m);
        return (prev != null ? prev : ring.last()).endpoint;
    }

    /** The K observers of {@code e} (one per ring, may repeat in small clusters); also for a node about to join. */
    public List<Endpoint> observersOf(Endpoint e) {
        List<Endpoint> out = new ArrayList<>(rings);
        for (int k = 0; k < rings; k++) {
            Endpoint o = observer(e, k);
            if (o != null) {
                out.add(o);
            }
        }
        return out;
    }

    /** The K subjects of {@code e}. */
    public List<Endpoint> subjectsOf(Endpoint e) {
        List<Endpoint> out = new ArrayList<>(rings);
        for (int k = 0; k < rings; k++) {
            Endpoint s = subject(e, k);
            if (s != null) {
                out.add(s);
            }
        }
        return out;
    }

    /** Members in ring {@code k} order. */
    public List<Endpoint> ring(int k) {
        List<Endpoint> out = new ArrayList<>(members.size());
        for (Member m : ringSets.get(k)) {
            out.add(m.endpoint);
        }
        return out;
    }

    private Member lookup(Endpoint e) {
        Member m = members.get(e);
        return m != null ? m : member(e);
    }
}
