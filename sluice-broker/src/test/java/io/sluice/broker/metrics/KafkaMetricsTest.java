package io.sluice.broker.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.codahale.metrics.Histogram;
import com.codahale.metrics.Meter;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class KafkaMetricsTest {
    private final MBeanServer server = MBeanServerFactory.newMBeanServer();
    private final KafkaMetrics metrics = new KafkaMetrics(server);

    @AfterEach
    void close() {
        metrics.close();
    }

    private Set<String> attributes(ObjectName name) throws Exception {
        return Arrays.stream(server.getMBeanInfo(name).getAttributes())
                .map(MBeanAttributeInfo::getName)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    @Test
    void shouldGiveTheSameMeterForTheSameNameAndRefuseAnotherKind() {
        MetricName name = BrokerTopicMetrics.name("BytesInPerSec", "t");
        Meter meter = metrics.meter(name, "bytes");
        assertSame(meter, metrics.meter(name, "bytes"));
        assertThrows(IllegalArgumentException.class, () -> metrics.histogram(name));
        assertFalse(metrics.gauge(name, () -> 1), "a gauge does not replace a meter");
    }

    @Test
    void shouldGiveTheSameGroupOfHistogramsForTheSameNamesAndRefuseOverlaps() throws Exception {
        MetricName queue = RequestMetrics.name("RequestQueueTimeMs", "Produce");
        MetricName local = RequestMetrics.name("LocalTimeMs", "Produce");
        RecentHistograms group = metrics.histograms(queue, local);
        assertSame(group, metrics.histograms(queue, local));
        try (RecentHistograms.Writer writer = group.writer(System.nanoTime())) {
            writer.record(0, 4);
            writer.record(1, 9);
        }
        assertEquals(9.0, server.getAttribute(local.objectName(), "Max"));
        assertEquals(1L, server.getAttribute(queue.objectName(), "Count"));
        assertSame(metrics.histogram(local), metrics.histogram(local), "a member is found by its name alone");

        MetricName remote = RequestMetrics.name("RemoteTimeMs", "Produce");
        assertThrows(IllegalArgumentException.class, () -> metrics.histograms(queue, remote), "another group's name");
        assertThrows(IllegalArgumentException.class, () -> metrics.histograms(local, queue), "members reordered");
        metrics.histogram(remote);
        MetricName send = RequestMetrics.name("ResponseSendTimeMs", "Produce");
        assertThrows(IllegalArgumentException.class, () -> metrics.histograms(send, remote), "a histogram of its own");
        assertFalse(metrics.contains(send), "a refused group registers none of its names");
    }

    @Test
    void shouldShowAMeterWithKafkasAttributes() throws Exception {
        metrics.meter(BrokerTopicMetrics.name("BytesInPerSec", "t"), "bytes").mark(42);
        ObjectName bean = new ObjectName("kafka.server:type=BrokerTopicMetrics,name=BytesInPerSec,topic=t");
        assertEquals(
                Set.of(
                        "Count",
                        "EventType",
                        "RateUnit",
                        "MeanRate",
                        "OneMinuteRate",
                        "FiveMinuteRate",
                        "FifteenMinuteRate"),
                attributes(bean));
        assertEquals(42L, server.getAttribute(bean, "Count"));
        assertEquals("bytes", server.getAttribute(bean, "EventType"));
        assertEquals(TimeUnit.SECONDS, server.getAttribute(bean, "RateUnit"));
    }

    @Test
    void shouldShowAHistogramWithPercentilesOfTheValuesRecorded() throws Exception {
        Histogram histogram = metrics.histogram(RequestMetrics.name("TotalTimeMs", "Produce"));
        for (int value = 1; value <= 1000; value++) {
            histogram.update(value);
        }
        ObjectName bean = new ObjectName("kafka.network:type=RequestMetrics,name=TotalTimeMs,request=Produce");
        assertEquals(
                Set.of(
                        "Count",
                        "Min",
                        "Max",
                        "Mean",
                        "StdDev",
                        "50thPercentile",
                        "75thPercentile",
                        "95thPercentile",
                        "98thPercentile",
                        "99thPercentile",
                        "999thPercentile"),
                attributes(bean));
        assertEquals(1000L, server.getAttribute(bean, "Count"));
        assertEquals(1.0, server.getAttribute(bean, "Min"));
        assertEquals(1000.0, (Double) server.getAttribute(bean, "Max"), 10.0, "within the histogram's 1%");
        assertEquals(500.5, (Double) server.getAttribute(bean, "Mean"), 5.0);
        assertEquals(288.7, (Double) server.getAttribute(bean, "StdDev"), 3.0);
        double median = (Double) server.getAttribute(bean, "50thPercentile");
        double p99 = (Double) server.getAttribute(bean, "99thPercentile");
        assertTrue(median >= 450 && median <= 550, "median of 1..1000 from a real histogram: " + median);
        assertTrue(p99 >= 980 && p99 <= 1000, "99th percentile of 1..1000: " + p99);
    }

    @Test
    void shouldReadAGaugeWhenAsked() throws Exception {
        AtomicLong value = new AtomicLong(3);
        assertTrue(metrics.gauge(BrokerGauges.replicaManager("PartitionCount"), value::get));
        ObjectName bean = new ObjectName("kafka.server:type=ReplicaManager,name=PartitionCount");
        assertEquals(3L, server.getAttribute(bean, "Value"));
        value.set(5);
        assertEquals(5L, server.getAttribute(bean, "Value"));
        assertEquals(Set.of("Value"), attributes(bean));
    }

    @Test
    void shouldUnregisterRemovedMetricsAndEverythingOnClose() throws Exception {
        metrics.meter(BrokerTopicMetrics.name("BytesInPerSec", "a"), "bytes");
        metrics.meter(BrokerTopicMetrics.name("BytesInPerSec", "b"), "bytes");
        metrics.remove(BrokerTopicMetrics.name("BytesInPerSec", "a"));
        assertFalse(
                server.isRegistered(new ObjectName("kafka.server:type=BrokerTopicMetrics,name=BytesInPerSec,topic=a")));
        assertTrue(
                server.isRegistered(new ObjectName("kafka.server:type=BrokerTopicMetrics,name=BytesInPerSec,topic=b")));
        metrics.close();
        assertEquals(Set.of(), server.queryNames(new ObjectName("kafka.*:*"), null));
    }

    @Test
    void shouldCountWithoutAnMBeanWhenAnotherBrokerInTheJvmHoldsTheName() throws Exception {
        KafkaMetrics second = new KafkaMetrics(server);
        MetricName name = BrokerTopicMetrics.name("BytesInPerSec", null);
        metrics.meter(name, "bytes").mark(1);
        second.meter(name, "bytes").mark(7);
        ObjectName bean = new ObjectName("kafka.server:type=BrokerTopicMetrics,name=BytesInPerSec");
        assertEquals(1L, server.getAttribute(bean, "Count"), "the first registration stays");
        second.close();
        assertTrue(server.isRegistered(bean), "closing the second leaves the first one's MBean");
    }

    @Test
    void shouldQuoteTagValuesJmxCannotTakeAsIs() {
        assertEquals(
                "kafka.server:type=BrokerTopicMetrics,name=BytesInPerSec,topic=plain.topic-1_x",
                BrokerTopicMetrics.name("BytesInPerSec", "plain.topic-1_x")
                        .objectName()
                        .toString());
        MetricName odd = MetricName.of("kafka.server", "FetcherLagMetrics", "ConsumerLag", "clientId", "a,b=c");
        assertEquals("a,b=c", ObjectName.unquote(odd.objectName().getKeyProperty("clientId")));
        assertThrows(IllegalArgumentException.class, () -> new MetricName("d", "t", "n", List.of("odd")));
    }
}
