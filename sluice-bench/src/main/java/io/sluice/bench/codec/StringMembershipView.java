package io.sluice.bench.codec;

import io.sluice.codec.endpoint.SeededHash;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The String-hostname variant of {@link MembershipView} for benchmark 4: the same K rings,
 * with {@link StringEndpoint} members. {@code hashPerCompare} reproduces Rapid before PR #19 (the ring comparator
 * hashes the host string on every comparison); otherwise ring hashes are computed once per insert, exactly like
 * Sluice's view, so only the host representation differs. Not thread-safe.
 */
public final class StringMembershipView {
    private static final long CONFIG_SEED = 0x5eed_c0f1_6a11_d00dL;
    private final int rings;
    private final boolean hashPerCompare;
    private final List<TreeSet<Member>> ringSets = new ArrayList<>();
    private final Map<StringEndpoint, Member> members = new HashMap<>();
    private long configSum;

    private record Member(StringEndpoint endpoint, long[] ringHashes) {}

    public StringMembershipView(int rings, boolean hashPerCompare) {
        this.rings = rings;
        this.hashPerCompare = hashPerCompare;
        for (int k = 0; k < rings; k++) {
            final int ring = k;
            ringSets.add(new TreeSet<>((a, b) -> {
                long ha = hashPerCompare ? a.endpoint.seededHash(ring) : a.ringHashes[ring];
                long hb = hashPerCompare ? b.endpoint.seededHash(ring) : b.ringHashes[ring];
                int c = Long.compare(ha, hb);
                return c != 0 ? c : a.endpoint.compareTo(b.endpoint);
            }));
        }
    }

    public boolean add(StringEndpoint e) {
        if (members.containsKey(e)) {
            return false;
        }
        long[] hashes = null;
        if (!hashPerCompare) {
            hashes = new long[rings];
            for (int k = 0; k < rings; k++) {
                hashes[k] = e.seededHash(k);
            }
        }
        Member m = new Member(e, hashes);
        members.put(e, m);
        for (TreeSet<Member> ring : ringSets) {
            ring.add(m);
        }
        configSum += SeededHash.mix(e.seededHash(CONFIG_SEED));
        return true;
    }

    public int size() {
        return members.size();
    }

    public long configurationId() {
        return SeededHash.mix(configSum ^ members.size());
    }
}
