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
            "broker.id.generation.enable");

    private static final List<String> PREFIXES = List.of(
            "transaction.state.log.",
            "transaction.",
            "group.coordinator.",
            "group.consumer.",
            "group.share.",
            "share.coordinator.",
            "log.cleaner.",
            "replica.",
            "quota.",
            "ssl.",
            "sasl.",
            "listener.name.",
            "remote.log.",
            "metadata.",
            "controller.",
            "kafka.metrics.");

    private IgnoredKafkaKeys() {
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
