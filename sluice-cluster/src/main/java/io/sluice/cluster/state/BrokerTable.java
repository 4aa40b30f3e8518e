package io.sluice.cluster.state;

import java.util.Arrays;
import java.util.Collection;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * Live brokers by id, ascending, as a persistent table: the ids are cut into sorted chunks of at most
 * {@link #CHUNK_LIMIT}, and a change copies only the chunks it touches plus the array of chunk references. A join or a
 * leave therefore costs one chunk and {@code size / CHUNK_LIMIT} references, instead of a copy of every broker (the
 * cost that made the controller's per-join work grow with the cluster). Chunks not touched are shared with the table
 * the change was applied to.
 *
 * <p>Immutable; safe to share between threads.
 */
final class BrokerTable implements Iterable<BrokerInfo> {
    /**
     * Largest chunk: copying 64 references per change is cheap, and a 1,000-broker table has about 30 chunks (chunks
     * split in halves when they overflow), so the chunk array stays small too.
     */
    static final int CHUNK_LIMIT = 64;
    /** A chunk shrunk below this is merged into a neighbour, so leaves cannot leave many near-empty chunks behind. */
    static final int MERGE_BELOW = CHUNK_LIMIT / 4;
    /** Chunk size of a table built at once (from a snapshot): room left for joins before the first split. */
    static final int BUILD_CHUNK = CHUNK_LIMIT * 3 / 4;

    static final BrokerTable EMPTY = new BrokerTable(new int[0][], new BrokerInfo[0][], 0);

    /** {@code ids[c]} sorted ascending, every id of chunk c below every id of chunk c + 1; never empty. */
    private final int[][] ids;

    private final BrokerInfo[][] infos;
    private final int size;

    private BrokerTable(int[][] ids, BrokerInfo[][] infos, int size) {
        this.ids = ids;
        this.infos = infos;
        this.size = size;
    }

    /** A table of {@code brokers} (a later broker with the same id replaces an earlier one). O(n log n). */
    static BrokerTable of(Iterable<BrokerInfo> brokers) {
        java.util.TreeMap<Integer, BrokerInfo> sorted = new java.util.TreeMap<>();
        for (BrokerInfo info : brokers) {
            sorted.put(info.id(), info);
        }
        int n = sorted.size();
        int chunks = (n + BUILD_CHUNK - 1) / BUILD_CHUNK;
        int[][] ids = new int[chunks][];
        BrokerInfo[][] infos = new BrokerInfo[chunks][];
        Iterator<BrokerInfo> it = sorted.values().iterator();
        for (int c = 0; c < chunks; c++) {
            int len = Math.min(BUILD_CHUNK, n - c * BUILD_CHUNK);
            ids[c] = new int[len];
            infos[c] = new BrokerInfo[len];
            for (int i = 0; i < len; i++) {
                BrokerInfo info = it.next();
                ids[c][i] = info.id();
                infos[c][i] = info;
            }
        }
        return new BrokerTable(ids, infos, n);
    }

    int size() {
        return size;
    }

    BrokerInfo get(int id) {
        int c = chunkFor(id);
        if (c < 0) {
            return null;
        }
        int i = Arrays.binarySearch(ids[c], id);
        return i >= 0 ? infos[c][i] : null;
    }

    boolean contains(int id) {
        return get(id) != null;
    }

    /** The lowest id; the table must not be empty. */
    int firstId() {
        if (size == 0) {
            throw new NoSuchElementException("no brokers");
        }
        return ids[0][0];
    }

    /** The highest id; the table must not be empty. */
    int lastId() {
        if (size == 0) {
            throw new NoSuchElementException("no brokers");
        }
        int[] last = ids[ids.length - 1];
        return last[last.length - 1];
    }

    /**
     * This table with {@code joined} put (replacing a broker of the same id) and then {@code left} removed. Costs
     * O(changes x CHUNK_LIMIT + size / CHUNK_LIMIT); returns this table when nothing changes.
     */
    BrokerTable with(Collection<BrokerInfo> joined, int[] left) {
        if (joined.isEmpty() && left.length == 0) {
            return this;
        }
        Editor e = new Editor(this);
        for (BrokerInfo info : joined) {
            e.put(info);
        }
        for (int id : left) {
            e.remove(id);
        }
        return e.build();
    }

    /** Same ids mapped to equal brokers. */
    boolean sameEntries(BrokerTable o) {
        if (o == this) {
            return true;
        }
        if (size != o.size) {
            return false;
        }
        Iterator<BrokerInfo> a = iterator();
        Iterator<BrokerInfo> b = o.iterator();
        while (a.hasNext()) {
            if (!a.next().equals(b.next())) {
                return false;
            }
        }
        return true;
    }

    /** The brokers in ascending id order. */
    @Override
    public Iterator<BrokerInfo> iterator() {
        return new Iterator<>() {
            private int chunk;
            private int index;

            @Override
            public boolean hasNext() {
                return chunk < infos.length;
            }

            @Override
            public BrokerInfo next() {
                if (chunk >= infos.length) {
                    throw new NoSuchElementException();
                }
                BrokerInfo info = infos[chunk][index++];
                if (index == infos[chunk].length) {
                    chunk++;
                    index = 0;
                }
                return info;
            }
        };
    }

    /** The chunk whose range holds {@code id}: the last chunk starting at or below it; -1 when none does. */
    private int chunkFor(int id) {
        return lastChunkStartingAtOrBelow(ids, ids.length, id);
    }

    private static int lastChunkStartingAtOrBelow(int[][] chunks, int count, int id) {
        int lo = 0;
        int hi = count - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (chunks[mid][0] <= id) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }

    /**
     * Applies changes to a copy of the chunk array; each change copies the one chunk it touches. Not thread-safe;
     * one per {@link #with} call.
     */
    private static final class Editor {
        private int[][] ids;
        private BrokerInfo[][] infos;
        private int chunks;
        private int size;

        Editor(BrokerTable base) {
            this.chunks = base.ids.length;
            this.ids = Arrays.copyOf(base.ids, chunks + 1);
            this.infos = Arrays.copyOf(base.infos, chunks + 1);
            this.size = base.size;
        }

        void put(BrokerInfo info) {
            int id = info.id();
            if (chunks == 0) {
                insertChunk(0, new int[] {id}, new BrokerInfo[] {info});
                size++;
                return;
            }
            int c = Math.max(0, lastChunkStartingAtOrBelow(ids, chunks, id));
            int[] chunkIds = ids[c];
            BrokerInfo[] chunkInfos = infos[c];
            int i = Arrays.binarySearch(chunkIds, id);
            if (i >= 0) {
                BrokerInfo[] replaced = chunkInfos.clone();
                replaced[i] = info;
                infos[c] = replaced;
                return;
            }
            int at = -i - 1;
            int[] grownIds = new int[chunkIds.length + 1];
            BrokerInfo[] grownInfos = new BrokerInfo[chunkIds.length + 1];
            System.arraycopy(chunkIds, 0, grownIds, 0, at);
            System.arraycopy(chunkInfos, 0, grownInfos, 0, at);
            grownIds[at] = id;
            grownInfos[at] = info;
            System.arraycopy(chunkIds, at, grownIds, at + 1, chunkIds.length - at);
            System.arraycopy(chunkInfos, at, grownInfos, at + 1, chunkIds.length - at);
            size++;
            if (grownIds.length <= CHUNK_LIMIT) {
                ids[c] = grownIds;
                infos[c] = grownInfos;
                return;
            }
            int half = grownIds.length / 2;
            ids[c] = Arrays.copyOfRange(grownIds, 0, half);
            infos[c] = Arrays.copyOfRange(grownInfos, 0, half);
            insertChunk(
                    c + 1,
                    Arrays.copyOfRange(grownIds, half, grownIds.length),
                    Arrays.copyOfRange(grownInfos, half, grownInfos.length));
        }

        void remove(int id) {
            int c = lastChunkStartingAtOrBelow(ids, chunks, id);
            if (c < 0) {
                return;
            }
            int[] chunkIds = ids[c];
            int i = Arrays.binarySearch(chunkIds, id);
            if (i < 0) {
                return;
            }
            BrokerInfo[] chunkInfos = infos[c];
            int[] shrunkIds = new int[chunkIds.length - 1];
            BrokerInfo[] shrunkInfos = new BrokerInfo[chunkIds.length - 1];
            System.arraycopy(chunkIds, 0, shrunkIds, 0, i);
            System.arraycopy(chunkInfos, 0, shrunkInfos, 0, i);
            System.arraycopy(chunkIds, i + 1, shrunkIds, i, chunkIds.length - i - 1);
            System.arraycopy(chunkInfos, i + 1, shrunkInfos, i, chunkIds.length - i - 1);
            size--;
            if (shrunkIds.length == 0) {
                removeChunk(c);
                return;
            }
            ids[c] = shrunkIds;
            infos[c] = shrunkInfos;
            if (shrunkIds.length < MERGE_BELOW) {
                mergeWithNeighbour(c);
            }
        }

        /** Merges chunk {@code c} with its smaller neighbour when both fit one chunk. */
        private void mergeWithNeighbour(int c) {
            int other;
            if (c > 0 && (c + 1 >= chunks || ids[c - 1].length <= ids[c + 1].length)) {
                other = c - 1;
            } else if (c + 1 < chunks) {
                other = c + 1;
            } else {
                return;
            }
            int first = Math.min(c, other);
            int[] a = ids[first];
            int[] b = ids[first + 1];
            if (a.length + b.length > CHUNK_LIMIT) {
                return;
            }
            int[] mergedIds = Arrays.copyOf(a, a.length + b.length);
            System.arraycopy(b, 0, mergedIds, a.length, b.length);
            BrokerInfo[] mergedInfos = Arrays.copyOf(infos[first], a.length + b.length);
            System.arraycopy(infos[first + 1], 0, mergedInfos, a.length, b.length);
            ids[first] = mergedIds;
            infos[first] = mergedInfos;
            removeChunk(first + 1);
        }

        private void insertChunk(int at, int[] chunkIds, BrokerInfo[] chunkInfos) {
            if (chunks == ids.length) {
                ids = Arrays.copyOf(ids, chunks * 2 + 1);
                infos = Arrays.copyOf(infos, chunks * 2 + 1);
            }
            System.arraycopy(ids, at, ids, at + 1, chunks - at);
            System.arraycopy(infos, at, infos, at + 1, chunks - at);
            ids[at] = chunkIds;
            infos[at] = chunkInfos;
            chunks++;
        }

        private void removeChunk(int at) {
            System.arraycopy(ids, at + 1, ids, at, chunks - at - 1);
            System.arraycopy(infos, at + 1, infos, at, chunks - at - 1);
            chunks--;
            ids[chunks] = null;
            infos[chunks] = null;
        }

        BrokerTable build() {
            return new BrokerTable(Arrays.copyOf(ids, chunks), Arrays.copyOf(infos, chunks), size);
        }
    }
}
