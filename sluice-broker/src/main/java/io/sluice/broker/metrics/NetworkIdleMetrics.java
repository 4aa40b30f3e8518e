package io.sluice.broker.metrics;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * Kafka's {@code kafka.network:type=SocketServer,name=NetworkProcessorAvgIdlePercent} and each processor's
 * {@code kafka.network:type=Processor,name=IdlePercent,networkProcessor=<n>}, as fractions from 0 to 1 like Kafka's.
 *
 * <p><b>What idle means here.</b> Kafka's value is its selector's io-wait-ratio: the share of wall time the
 * processor thread spent blocked in select() waiting for sockets. A Sluice network processor is a Netty event loop,
 * whose select() Netty does not time. What can be measured honestly is its thread's CPU time: over each
 * {@link #sample()} interval, idle = 1 - (CPU time the event-loop thread used / wall time elapsed). A thread blocked
 * in epoll uses no CPU, a thread reading, framing, encrypting or writing does, so this is the same split as Kafka's
 * except that time the thread was runnable but not scheduled (an overloaded machine) counts as idle, and
 * sendfile's in-kernel time counts as busy. Until the first interval ends the gauges show NaN.
 *
 * <p>Thread-safe: {@link #sample()} runs on one scheduler thread, the gauges are read from any.
 */
public final class NetworkIdleMetrics {
    /** How often {@link #sample()} should run: Kafka's rates cover 30 to 60 s; this shows a change within seconds. */
    public static final Duration SAMPLE_INTERVAL = Duration.ofSeconds(5);

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final List<Thread> processors;
    private final long[] lastCpuNanos;
    private long lastWallNanos;
    private final double[] idle;

    /** Registers the gauges of {@code networkThreads} (index = networkProcessor) into {@code metrics}. */
    public NetworkIdleMetrics(KafkaMetrics metrics, List<Thread> networkThreads) {
        this.processors = List.copyOf(networkThreads);
        this.lastCpuNanos = new long[processors.size()];
        this.idle = new double[processors.size()];
        Arrays.fill(idle, Double.NaN);
        for (int i = 0; i < processors.size(); i++) {
            lastCpuNanos[i] = cpuNanos(i);
            int processor = i;
            metrics.gauge(
                    MetricName.of("kafka.network", "Processor", "IdlePercent", "networkProcessor", Integer.toString(i)),
                    () -> idle(processor));
        }
        lastWallNanos = System.nanoTime();
        metrics.gauge(MetricName.of("kafka.network", "SocketServer", "NetworkProcessorAvgIdlePercent"), this::average);
    }

    /** Ends one interval: each processor's idle share since the previous call. */
    public void sample() {
        long now = System.nanoTime();
        long wall = now - lastWallNanos;
        if (wall <= 0) {
            return;
        }
        double[] next = new double[processors.size()];
        for (int i = 0; i < processors.size(); i++) {
            long cpu = cpuNanos(i);
            long used = cpu < 0 || lastCpuNanos[i] < 0 ? -1 : cpu - lastCpuNanos[i];
            next[i] = used < 0 ? Double.NaN : Math.max(0, Math.min(1, 1 - used / (double) wall));
            lastCpuNanos[i] = cpu;
        }
        synchronized (idle) {
            System.arraycopy(next, 0, idle, 0, next.length);
        }
        lastWallNanos = now;
    }

    private double idle(int processor) {
        synchronized (idle) {
            return idle[processor];
        }
    }

    /** The mean over processors, as Kafka averages its processors' io-wait-ratio; 1 with no processor. */
    private double average() {
        if (processors.isEmpty()) {
            return 1.0;
        }
        double sum = 0;
        synchronized (idle) {
            for (double value : idle) {
                sum += value;
            }
        }
        return sum / processors.size();
    }

    /** The thread's CPU time, -1 when the JVM cannot tell (or the thread ended). */
    private long cpuNanos(int processor) {
        return threads.isThreadCpuTimeSupported()
                ? threads.getThreadCpuTime(processors.get(processor).getId())
                : -1;
    }
}
