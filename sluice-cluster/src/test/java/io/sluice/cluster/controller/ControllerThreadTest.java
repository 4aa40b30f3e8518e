package io.sluice.cluster.controller;

import io.sluice.cluster.ZkTesting;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Controller tasks that fail, with an Error as much as with an exception, do not end what runs after them. */
class ControllerThreadTest {
    @Test
    void shouldKeepRunningAPeriodicTaskAfterARunFailsWithAnError() throws Exception {
        ControllerThread thread = new ControllerThread(7);
        try {
            AtomicInteger runs = new AtomicInteger();
            thread.scheduleWithFixedDelay(
                    () -> {
                        if (runs.incrementAndGet() == 1) {
                            throw new StackOverflowError("first run fails");
                        }
                    },
                    1);
            ZkTesting.await("a run after the failed one", () -> runs.get() >= 2);
        } finally {
            thread.shutdownAndWait();
        }
    }

    @Test
    void shouldRunLaterTasksAfterOneFailsWithAnError() throws Exception {
        ControllerThread thread = new ControllerThread(7);
        try {
            AtomicInteger ran = new AtomicInteger();
            thread.submit(() -> {
                throw new LinkageError("task fails");
            });
            thread.submit(ran::incrementAndGet);
            ZkTesting.await("the task after the failed one", () -> ran.get() == 1);
        } finally {
            thread.shutdownAndWait();
        }
    }
}
