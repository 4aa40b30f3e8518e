package io.sluice.broker;

import io.sluice.broker.config.BrokerConfig;
import io.sluice.broker.config.TopicConfigs;
import io.sluice.broker.topic.TopicLogConfig;
import io.sluice.log.LogConfig;
import io.sluice.log.LogManager;
import io.sluice.log.LogManagerConfig;
import java.util.Map;
import java.util.function.Function;

/**
 * Builds the log manager from the broker configuration: broker-level log settings as defaults,
 * each topic's overrides (as the cluster state has them) on top, and the background task intervals.
 *
 * <p>Stateless.
 */
final class LogManagerFactory {
    private LogManagerFactory() {}

    static LogManager create(BrokerConfig config, Function<String, LogConfig> topicConfigs) {
        LogConfig defaults = TopicLogConfig.of(config, TopicConfigs.resolve(config, Map.of()));
        LogManagerConfig intervals = new LogManagerConfig(
                config.log().flushOffsetCheckpointIntervalMs(),
                config.log().flushOffsetCheckpointIntervalMs(),
                config.log().retentionCheckIntervalMs(),
                Math.min(config.log().flushSchedulerIntervalMs(), LogManagerConfig.DEFAULT_FLUSH_CHECK_INTERVAL_MS),
                config.moveBatchHeaderMemoryBytes());
        return new LogManager(
                config.logDirs(),
                defaults,
                topicConfigs,
                intervals,
                System::currentTimeMillis,
                null,
                config.log().cleanerConfig());
    }
}
