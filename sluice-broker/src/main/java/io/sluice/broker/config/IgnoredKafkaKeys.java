package io.sluice.broker.config;

import java.util.List;
import java.util.Set;

/**
 * Apache Kafka broker keys that Sluice accepts without using, so a Kafka server.properties
 * starts; they are reported as ignored, distinct from unknown keys. Immutable; thread-safe.
 */
final class IgnoredKafkaKeys {
    private static final Set<String> NAMES = Set.of(
            "num.recovery.threads.per.data.dir",
            "offsets.topic.segment.bytes",
            "offsets.load.buffer.size",
            "zookeeper.set.acl",
            "process.roles",
            "controller.quorum.voters",
            "controller.quorum.bootstrap.servers",
            "controller.listener.names",
            "inter.broker.protocol.version",
            "log.message.format.version",
            "log.message.downconversion.enable",
            "log.preallocate",
            "log.roll.jitter.ms",
            "log.roll.jitter.hours",
            "num.replica.alter.log.dirs.threads",
            "background.threads",
            "metric.reporters",
            "metrics.num.samples",
            "metrics.recording.level",
            "metrics.sample.window.ms",
            "max.connections",
            "max.connections.per.ip",
            "max.incremental.fetch.session.cache.slots",
            "fetch.max.bytes",
            "request.timeout.ms",
            "reserved.broker.max.id",
            // Sluice bounds the requests read ahead per connection instead (the network layer pauses reading)
            "queued.max.requests",
            "broker.id.generation.enable");

    private static final List<String> PREFIXES = List.of(
            "transaction.state.log.",
            "transaction.",
            "group.coordinator.",
            "group.consumer.",
            "group.share.",
            "share.coordinator.",
            "replica.",
            "quota.",
            "ssl.",
            "sasl.",
            "listener.name.",
            "remote.log.",
            "metadata.",
            "controller.",
            "kafka.metrics.");

    private IgnoredKafkaKeys() {}

    /** The names, then each prefix followed by {@code *}, sorted within each group. */
    static List<String> describe() {
        List<String> all = new java.util.ArrayList<>(new java.util.TreeSet<>(NAMES));
        for (String prefix : new java.util.TreeSet<>(PREFIXES)) {
            all.add(prefix + "*");
        }
        return all;
    }

    static boolean contains(String key) {
        if (NAMES.contains(key)) {
            return true;
        }
        for (String prefix : PREFIXES) {
            if (key.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }
}
