package io.sluice.broker.metrics;

import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.Predicate;
import java.util.function.Supplier;
import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.StandardMBean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every metric of one broker by its Kafka name, each also registered as an MBean of that name. Creating a metric is
 * idempotent (the same name gives the same meter), so callers cache what they use on hot paths and look up nothing
 * per request. When two brokers share a JVM (tests) the first to register a name shows it in JMX; the other keeps
 * counting for its own Prometheus endpoint.
 *
 * <p>Thread-safe; {@link #close()} unregisters the MBeans this instance registered.
 */
public final class KafkaMetrics implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(KafkaMetrics.class);

    /** One metric: what it counts and how the Prometheus bridge and JMX read it. */
    public sealed interface Entry permits MeterEntry, HistogramEntry, GaugeEntry {}

    /** A rate with its count; {@code eventType} is Kafka's word for what is counted ("bytes", "requests"). */
    public record MeterEntry(KafkaMeter meter, String eventType) implements Entry {}

    /** A distribution: percentiles of the last minute's values ({@link RecentHistogram}), Count of all. */
    public record HistogramEntry(RecentHistogram histogram) implements Entry {}

    /** A value read when asked. */
    public record GaugeEntry(Supplier<? extends Number> value) implements Entry {}

    private final Map<MetricName, Entry> metrics = new ConcurrentHashMap<>();
    private final Set<ObjectName> registeredBeans = ConcurrentHashMap.newKeySet();
    private final MBeanServer beanServer;
    private final AttributeBeans attributeBeans;
    /** Held while a group of histograms is looked up or registered, so two callers get one group. */
    private final Object groupCreation = new Object();

    /** Metrics shown in the platform MBean server (what JConsole and jmx_exporter read). */
    public KafkaMetrics() {
        this(ManagementFactory.getPlatformMBeanServer());
    }

    /** @param beanServer where the MBeans go; null keeps the metrics out of JMX */
    public KafkaMetrics(MBeanServer beanServer) {
        this.beanServer = beanServer;
        this.attributeBeans = new AttributeBeans(beanServer);
    }

    /** The meter named {@code name}, created on first use. */
    public KafkaMeter meter(MetricName name, String eventType) {
        Entry entry = metrics.get(name);
        if (entry == null) {
            entry = register(name, new MeterEntry(new KafkaMeter(), eventType));
        }
        if (entry instanceof MeterEntry meter) {
            return meter.meter();
        }
        throw new IllegalArgumentException(
                name + " is already registered as " + entry.getClass().getSimpleName());
    }

    /** The histogram named {@code name}, created on first use. */
    public RecentHistogram histogram(MetricName name) {
        Entry entry = metrics.get(name);
        return entry == null ? histogram(name, new RecentHistogram()) : histogramOf(name, entry);
    }

    /** Registers {@code created} unless a histogram named {@code name} exists; returns the one registered. */
    public RecentHistogram histogram(MetricName name, RecentHistogram created) {
        return histogramOf(name, register(name, new HistogramEntry(created)));
    }

    /**
     * The group of histograms recorded together whose histogram {@code i} is named {@code names[i]}, created on
     * first use; the same names give the same group.
     */
    public RecentHistograms histograms(MetricName... names) {
        synchronized (groupCreation) {
            RecentHistograms group = existingGroup(names);
            if (group != null) {
                return group;
            }
            for (MetricName name : names) {
                if (metrics.containsKey(name)) {
                    throw new IllegalArgumentException(name + " is already registered outside this group");
                }
            }
            group = new RecentHistograms(names.length);
            for (int i = 0; i < names.length; i++) {
                RecentHistogram member = new RecentHistogram(group, i);
                if (histogram(names[i], member) != member) {
                    throw new IllegalArgumentException(names[i] + " is already registered outside this group");
                }
            }
            return group;
        }
    }

    /** The group already registered under exactly {@code names}; null when none of them is registered. */
    private RecentHistograms existingGroup(MetricName[] names) {
        Entry first = metrics.get(names[0]);
        if (first == null) {
            return null;
        }
        RecentHistograms group = histogramOf(names[0], first).recordingGroup();
        for (int i = 0; i < names.length; i++) {
            Entry entry = metrics.get(names[i]);
            if (group == null
                    || group.size() != names.length
                    || entry == null
                    || !histogramOf(names[i], entry).recordsInto(group, i)) {
                throw new IllegalArgumentException(names[i] + " is already registered outside this group");
            }
        }
        return group;
    }

    private static RecentHistogram histogramOf(MetricName name, Entry entry) {
        if (entry instanceof HistogramEntry histogram) {
            return histogram.histogram();
        }
        throw new IllegalArgumentException(
                name + " is already registered as " + entry.getClass().getSimpleName());
    }

    /** Registers a gauge unless one of that name exists; returns whether this one was registered. */
    public boolean gauge(MetricName name, Supplier<? extends Number> value) {
        return register(name, new GaugeEntry(value)) instanceof GaugeEntry registered && registered.value() == value;
    }

    public boolean contains(MetricName name) {
        return metrics.containsKey(name);
    }

    /** Removes a metric and its MBean; nothing happens when there is none. */
    public void remove(MetricName name) {
        if (metrics.remove(name) != null) {
            if (name.nameIsAttribute()) {
                attributeBeans.remove(name);
            } else {
                unregister(name.objectName());
            }
        }
    }

    /** Removes every metric whose name matches (a deleted topic's, a partition no longer hosted). */
    public void removeIf(Predicate<MetricName> matching) {
        for (MetricName name : metrics.keySet()) {
            if (matching.test(name)) {
                remove(name);
            }
        }
    }

    /** Visits every metric (for the Prometheus bridge); metrics added meanwhile may be missed. */
    public void forEach(BiConsumer<MetricName, Entry> visitor) {
        metrics.forEach(visitor);
    }

    @Override
    public void close() {
        metrics.clear();
        attributeBeans.close();
        for (ObjectName bean : registeredBeans) {
            unregister(bean);
        }
    }

    private Entry register(MetricName name, Entry created) {
        Entry existing = metrics.putIfAbsent(name, created);
        if (existing != null) {
            return existing;
        }
        if (name.nameIsAttribute()) {
            if (!(created instanceof GaugeEntry gauge)) {
                metrics.remove(name, created);
                throw new IllegalArgumentException(name + ": only gauges take Kafka's metrics-library form");
            }
            attributeBeans.add(name, gauge.value());
        } else if (beanServer != null) {
            ObjectName objectName = name.objectName();
            try {
                beanServer.registerMBean(view(created), objectName);
                registeredBeans.add(objectName);
            } catch (InstanceAlreadyExistsException e) {
                LOG.debug("{} is already in JMX (another broker in this JVM); counting without an MBean", objectName);
            } catch (JMException e) {
                LOG.warn("Could not register {} in JMX", objectName, e);
            }
        }
        return created;
    }

    private static StandardMBean view(Entry entry) throws JMException {
        if (entry instanceof MeterEntry m) {
            return new StandardMBean(new MetricBeans.MeterBean(m.meter(), m.eventType()), MetricBeans.MeterView.class);
        }
        if (entry instanceof HistogramEntry h) {
            return new StandardMBean(new MetricBeans.HistogramBean(h.histogram()), MetricBeans.HistogramView.class);
        }
        GaugeEntry g = (GaugeEntry) entry;
        return new StandardMBean(new MetricBeans.GaugeBean(g.value()), MetricBeans.GaugeView.class);
    }

    private void unregister(ObjectName objectName) {
        if (!registeredBeans.remove(objectName)) {
            return;
        }
        try {
            beanServer.unregisterMBean(objectName);
        } catch (InstanceNotFoundException e) {
            LOG.debug("{} was already gone from JMX", objectName);
        } catch (JMException e) {
            LOG.warn("Could not unregister {} from JMX", objectName, e);
        }
    }
}
