package io.sluice.broker;

import io.sluice.broker.config.BrokerConfig;
import io.sluice.broker.config.TopicConfigs;
import io.sluice.broker.topic.TopicInfo;
import io.sluice.broker.topic.TopicManager;
import io.sluice.broker.topic.TopicRegistry;
import io.sluice.log.LogConfig;
import io.sluice.log.LogManager;
import io.sluice.log.LogManagerConfig;
import java.util.Map;

/**
 * Builds the log manager from the broker configuration: broker-level log settings as defaults,
 * each registered topic's overrides on top, and the background task intervals.
 *
 * <p>Stateless.
 */
final class LogManagerFactory {
    private LogManagerFactory() {
    }

    static LogManager create(BrokerConfig config, TopicRegistry registry) {
        LogConfig defaults = TopicManager.logConfig(config, TopicConfigs.resolve(config, Map.of()));
        LogManagerConfig intervals = new LogManagerConfig(
                config.logFlushOffsetCheckpointIntervalMs(),
                config.logFlushOffsetCheckpointIntervalMs(),
                config.logRetentionCheckIntervalMs(),
                Math.min(config.logFlushSchedulerIntervalMs(), LogManagerConfig.DEFAULT_FLUSH_CHECK_INTERVAL_MS));
        return new LogManager(config.logDirs(), defaults, topic -> {
            TopicInfo info = registry.byName(topic);
            return info == null ? defaults : TopicManager.logConfig(config, TopicConfigs.resolve(config, info.configOverrides()));
        }, intervals, System::currentTimeMillis, null);
    }
}
