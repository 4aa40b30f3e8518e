package io.sluice.cluster.node;

import io.sluice.cluster.controller.ControllerEpochDescriptor;
import io.sluice.cluster.state.CorruptStateException;
import io.sluice.cluster.zk.ZkPaths;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who the controller is and its epoch, as recorded in {@code /controller_epoch}, watched with Curator's cache. The
 * record outlives a dead controller until the next one is elected; callers combine it with the live brokers.
 *
 * <p>Thread-safe: reads from any thread, updates on Curator's event thread.
 */
final class ControllerTracker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ControllerTracker.class);

    private final CuratorCache cache;
    private volatile int controllerId = ControllerEpochDescriptor.NO_CONTROLLER;
    private volatile int epoch = -1;

    ControllerTracker(CuratorFramework client) {
        this.cache = CuratorCache.build(client, ZkPaths.CONTROLLER_EPOCH, CuratorCache.Options.SINGLE_NODE_CACHE);
        this.cache.listenable().addListener((type, before, after) -> update(after));
    }

    void start() {
        cache.start();
    }

    private void update(ChildData data) {
        if (data == null || data.getData() == null) {
            controllerId = ControllerEpochDescriptor.NO_CONTROLLER;
            return;
        }
        try {
            int id = ControllerEpochDescriptor.controllerId(data.getData());
            int e = ControllerEpochDescriptor.epoch(data.getData());
            epoch = e;
            controllerId = id;
        } catch (CorruptStateException e) {
            LOG.warn("ignoring unreadable {}: {}", ZkPaths.CONTROLLER_EPOCH, e.getMessage());
        }
    }

    /** The broker id recorded as controller, {@link ControllerEpochDescriptor#NO_CONTROLLER} before any. */
    int controllerId() {
        return controllerId;
    }

    /** The recorded controller epoch, -1 before any. */
    int epoch() {
        return epoch;
    }

    @Override
    public void close() {
        cache.close();
    }
}
