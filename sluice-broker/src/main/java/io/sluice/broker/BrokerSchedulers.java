package io.sluice.broker;

import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The broker's background schedulers and the periodic tasks it runs on them. Stateless; thread-safe. */
final class BrokerSchedulers {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerSchedulers.class);

    private BrokerSchedulers() {}

    /**
     * Runs {@code task} every {@code period} on {@code timer}. A failure is logged and the task runs again next time: a
     * periodic task that throws would otherwise stop for good, its exception kept in a future nobody reads.
     */
    static void repeat(ScheduledThreadPoolExecutor timer, String what, Runnable task, long period, TimeUnit unit) {
        var unused = timer.scheduleWithFixedDelay(
                () -> {
                    try {
                        task.run();
                    } catch (RuntimeException e) {
                        LOG.warn("{} failed; trying again in {} {}", what, period, unit, e);
                    }
                },
                period,
                period,
                unit);
    }

    /** A one-thread scheduler of daemon threads named {@code name}; cancelled tasks leave its queue at once. */
    static ScheduledThreadPoolExecutor daemon(String name) {
        ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
        scheduler.setRemoveOnCancelPolicy(true);
        return scheduler;
    }
}
