package io.sluice.cluster.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cluster.ZkTesting;
import io.sluice.cluster.state.wire.BrokerRecord;
import io.sluice.cluster.state.wire.DeltaRecord;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** {@link BrokerTable} and {@link BrokerMapView} against a TreeMap reference model. */
class BrokerTablePropertiesTest {

    /** One batch of changes: brokers put, then ids removed. */
    record Batch(List<Integer> put, List<Integer> remove) {}

    @Provide
    Arbitrary<List<Batch>> histories() {
        // Ids from a small range so puts replace, removes hit, and chunks split and merge.
        Arbitrary<List<Integer>> ids =
                Arbitraries.integers().between(0, 400).list().ofMaxSize(90);
        return Combinators.combine(ids, ids).as(Batch::new).list().ofMinSize(1).ofMaxSize(40);
    }

    @Property(tries = 300)
    void everyVersionMatchesTheReferenceAndEarlierVersionsStayUnchanged(@ForAll("histories") List<Batch> history) {
        List<BrokerTable> versions = new ArrayList<>();
        List<TreeMap<Integer, BrokerInfo>> models = new ArrayList<>();
        BrokerTable table = BrokerTable.EMPTY;
        TreeMap<Integer, BrokerInfo> model = new TreeMap<>();
        int generation = 0;
        for (Batch b : history) {
            generation++;
            List<BrokerInfo> put = new ArrayList<>();
            for (int id : b.put()) {
                // A new rack per generation, so a replaced broker is told apart from the one it replaces.
                BrokerInfo info = ZkTesting.broker(id, "r" + generation);
                put.add(info);
                model.put(id, info);
            }
            int[] remove = b.remove().stream().mapToInt(Integer::intValue).toArray();
            for (int id : remove) {
                model.remove(id);
            }
            table = table.with(put, remove);
            versions.add(table);
            models.add(new TreeMap<>(model));
        }
        for (int v = 0; v < versions.size(); v++) {
            assertMatches(models.get(v), versions.get(v));
        }
        assertTrue(BrokerTable.of(models.get(models.size() - 1).values()).sameEntries(table), "bulk build agrees");
    }

    private static void assertMatches(TreeMap<Integer, BrokerInfo> model, BrokerTable table) {
        assertEquals(model.size(), table.size());
        Iterator<BrokerInfo> it = table.iterator();
        for (BrokerInfo expected : model.values()) {
            assertTrue(it.hasNext());
            assertEquals(expected, it.next());
        }
        assertFalse(it.hasNext());
        for (int id = -1; id <= 401; id++) {
            assertEquals(model.get(id), table.get(id), "broker " + id);
        }
        if (!model.isEmpty()) {
            assertEquals(model.firstKey(), table.firstId());
            assertEquals(model.lastKey(), table.lastId());
        }
        NavigableMap<Integer, BrokerInfo> view = new BrokerMapView(table);
        assertEquals(model, view);
        assertEquals(view, model);
        assertEquals(model.hashCode(), view.hashCode());
        assertEquals(List.copyOf(model.keySet()), List.copyOf(view.keySet()));
        if (!model.isEmpty()) {
            int mid = (model.firstKey() + model.lastKey()) / 2;
            assertEquals(model.floorKey(mid), view.floorKey(mid));
            assertEquals(model.higherEntry(mid), view.higherEntry(mid));
            assertEquals(model.headMap(mid), view.headMap(mid));
            assertEquals(model.firstEntry(), view.firstEntry());
            assertEquals(model.lastEntry(), view.lastEntry());
            assertEquals(List.copyOf(model.descendingKeySet()), List.copyOf(view.descendingKeySet()));
        }
    }

    @Test
    void shouldRefuseEveryMutationThroughTheView() {
        NavigableMap<Integer, BrokerInfo> view =
                new BrokerMapView(BrokerTable.of(List.of(ZkTesting.broker(1, ""), ZkTesting.broker(2, ""))));
        assertThrows(UnsupportedOperationException.class, () -> view.put(3, ZkTesting.broker(3, "")));
        assertThrows(UnsupportedOperationException.class, () -> view.remove(1));
        assertThrows(UnsupportedOperationException.class, view::clear);
        assertThrows(UnsupportedOperationException.class, view::pollFirstEntry);
        assertThrows(
                UnsupportedOperationException.class,
                () -> view.entrySet().iterator().next().setValue(null));
        assertThrows(UnsupportedOperationException.class, () -> view.headMap(2).clear());
        assertEquals(2, view.size());
        @SuppressWarnings("CollectionIncompatibleType") // the point of the test: a key of another type
        BrokerInfo otherType = view.get("1");
        assertNull(otherType, "a key of another type is absent");
    }

    @Test
    void shouldJoinOneBrokerToALargeStateWithoutCopyingTheOthers() {
        int brokers = 20_000;
        List<BrokerInfo> all = new ArrayList<>();
        for (int id = 0; id < brokers; id++) {
            all.add(ZkTesting.broker(id, ""));
        }
        ClusterState large = ClusterState.of(1, 10, all, List.of());
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        ClusterState s = large;
        for (int i = 0; i < 10; i++) {
            s = s.apply(join(s, brokers + i), s.appliedSeq() + 1);
        }
        long before = mx.getCurrentThreadAllocatedBytes();
        ClusterState joined = s.apply(join(s, brokers + 10), s.appliedSeq() + 1);
        long allocated = mx.getCurrentThreadAllocatedBytes() - before;
        // A copy of the broker map would be about 40 bytes per broker (800 KB here); one chunk and the chunk array
        // are a few KB.
        assertTrue(allocated < 16 * 1024, "one join allocated " + allocated + " bytes over " + brokers + " brokers");
        assertEquals(brokers + 11, joined.brokerCount());
        assertTrue(joined.hasBroker(brokers + 10));
        assertFalse(large.hasBroker(brokers + 10), "the earlier state is unchanged");
        assertEquals(Map.copyOf(large.brokers()), Map.copyOf(s.brokers().headMap(brokers)));
    }

    private static DeltaRecord join(ClusterState s, int id) {
        DeltaRecord d = new DeltaRecord();
        d.controllerEpoch = s.controllerEpoch();
        d.prevSeq = s.appliedSeq();
        d.joined.add(BrokerRecord.of(ZkTesting.broker(id, "")));
        return d;
    }
}
