package io.sluice.cluster.state;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * {@link ClusterState#brokers()}: a read-only {@link NavigableMap} over a {@link BrokerTable}. Lookups, size and
 * iteration in id order go straight to the table, so a state that is only asked about a few brokers never copies
 * them; the navigation methods (ranges, floor/ceiling, descending views) work on a {@link TreeMap} built on first use
 * and kept. Every mutator throws {@link UnsupportedOperationException}.
 *
 * <p>Thread-safe (the lazily built map is published through a volatile field; building it twice is harmless).
 */
final class BrokerMapView extends AbstractMap<Integer, BrokerInfo> implements NavigableMap<Integer, BrokerInfo> {
    private final BrokerTable table;
    private Set<Map.Entry<Integer, BrokerInfo>> entries;
    private volatile NavigableMap<Integer, BrokerInfo> navigable;

    BrokerMapView(BrokerTable table) {
        this.table = table;
    }

    BrokerTable table() {
        return table;
    }

    @Override
    public int size() {
        return table.size();
    }

    @Override
    public boolean isEmpty() {
        return table.size() == 0;
    }

    @Override
    public boolean containsKey(Object key) {
        return key instanceof Integer id && table.contains(id);
    }

    @Override
    public BrokerInfo get(Object key) {
        return key instanceof Integer id ? table.get(id) : null;
    }

    @Override
    public Set<Map.Entry<Integer, BrokerInfo>> entrySet() {
        Set<Map.Entry<Integer, BrokerInfo>> e = entries;
        if (e == null) {
            e = new AbstractSet<>() {
                @Override
                public Iterator<Map.Entry<Integer, BrokerInfo>> iterator() {
                    Iterator<BrokerInfo> it = table.iterator();
                    return new Iterator<>() {
                        @Override
                        public boolean hasNext() {
                            return it.hasNext();
                        }

                        @Override
                        public Map.Entry<Integer, BrokerInfo> next() {
                            BrokerInfo info = it.next();
                            return new SimpleImmutableEntry<>(info.id(), info);
                        }
                    };
                }

                @Override
                public int size() {
                    return table.size();
                }
            };
            entries = e;
        }
        return e;
    }

    @Override
    public boolean equals(Object o) {
        if (o instanceof BrokerMapView v) {
            return table.sameEntries(v.table);
        }
        return super.equals(o);
    }

    @Override
    public int hashCode() {
        return super.hashCode();
    }

    /** The navigation methods' backing map, built once. */
    private NavigableMap<Integer, BrokerInfo> navigable() {
        NavigableMap<Integer, BrokerInfo> n = navigable;
        if (n == null) {
            TreeMap<Integer, BrokerInfo> copy = new TreeMap<>();
            for (BrokerInfo info : table) {
                copy.put(info.id(), info);
            }
            n = Collections.unmodifiableNavigableMap(copy);
            navigable = n;
        }
        return n;
    }

    @Override
    public Comparator<? super Integer> comparator() {
        return null;
    }

    @Override
    public Integer firstKey() {
        return table.firstId();
    }

    @Override
    public Integer lastKey() {
        return table.lastId();
    }

    @Override
    public Map.Entry<Integer, BrokerInfo> firstEntry() {
        return isEmpty() ? null : new SimpleImmutableEntry<>(table.firstId(), table.get(table.firstId()));
    }

    @Override
    public Map.Entry<Integer, BrokerInfo> lastEntry() {
        return isEmpty() ? null : new SimpleImmutableEntry<>(table.lastId(), table.get(table.lastId()));
    }

    @Override
    public Map.Entry<Integer, BrokerInfo> pollFirstEntry() {
        throw new UnsupportedOperationException("the cluster state is immutable");
    }

    @Override
    public Map.Entry<Integer, BrokerInfo> pollLastEntry() {
        throw new UnsupportedOperationException("the cluster state is immutable");
    }

    @Override
    public Map.Entry<Integer, BrokerInfo> lowerEntry(Integer key) {
        return navigable().lowerEntry(key);
    }

    @Override
    public Integer lowerKey(Integer key) {
        return navigable().lowerKey(key);
    }

    @Override
    public Map.Entry<Integer, BrokerInfo> floorEntry(Integer key) {
        return navigable().floorEntry(key);
    }

    @Override
    public Integer floorKey(Integer key) {
        return navigable().floorKey(key);
    }

    @Override
    public Map.Entry<Integer, BrokerInfo> ceilingEntry(Integer key) {
        return navigable().ceilingEntry(key);
    }

    @Override
    public Integer ceilingKey(Integer key) {
        return navigable().ceilingKey(key);
    }

    @Override
    public Map.Entry<Integer, BrokerInfo> higherEntry(Integer key) {
        return navigable().higherEntry(key);
    }

    @Override
    public Integer higherKey(Integer key) {
        return navigable().higherKey(key);
    }

    @Override
    public NavigableMap<Integer, BrokerInfo> descendingMap() {
        return navigable().descendingMap();
    }

    @Override
    public NavigableSet<Integer> navigableKeySet() {
        return navigable().navigableKeySet();
    }

    @Override
    public NavigableSet<Integer> descendingKeySet() {
        return navigable().descendingKeySet();
    }

    @Override
    public NavigableMap<Integer, BrokerInfo> subMap(
            Integer fromKey, boolean fromInclusive, Integer toKey, boolean toInclusive) {
        return navigable().subMap(fromKey, fromInclusive, toKey, toInclusive);
    }

    @Override
    public NavigableMap<Integer, BrokerInfo> headMap(Integer toKey, boolean inclusive) {
        return navigable().headMap(toKey, inclusive);
    }

    @Override
    public NavigableMap<Integer, BrokerInfo> tailMap(Integer fromKey, boolean inclusive) {
        return navigable().tailMap(fromKey, inclusive);
    }

    @Override
    public SortedMap<Integer, BrokerInfo> subMap(Integer fromKey, Integer toKey) {
        return navigable().subMap(fromKey, toKey);
    }

    @Override
    public SortedMap<Integer, BrokerInfo> headMap(Integer toKey) {
        return navigable().headMap(toKey);
    }

    @Override
    public SortedMap<Integer, BrokerInfo> tailMap(Integer fromKey) {
        return navigable().tailMap(fromKey);
    }
}
