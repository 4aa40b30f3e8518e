package io.sluice.testkit;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Waits for a condition by polling a probe until it holds or a deadline passes, for tests on a shared, noisy machine:
 * the deadline only bounds a failure, it is never what a test asserts.
 *
 * <p>Thread-safe; stateless.
 */
public final class Poll {

    /** Pause between probes: short against the seconds a cluster change takes, long enough not to busy the CPU. */
    public static final Duration INTERVAL = Duration.ofMillis(100);

    private Poll() {}

    /**
     * Calls {@code probe} until {@code done} accepts its value and returns that value. A probe that throws counts
     * as "not yet" (a broker that is still starting refuses connections).
     *
     * @throws AssertionError naming {@code what}, the last value seen and, as its cause, the last probe failure
     */
    public static <T> T until(String what, Duration timeout, Callable<T> probe, Predicate<? super T> done)
            throws InterruptedException {
        return until(what, timeout, probe, done, () -> "");
    }

    /**
     * As {@link #until(String, Duration, Callable, Predicate)}, with {@code diagnostics} (what helps to explain a
     * failure: a process's output, a log's tail) computed only when the deadline passes and added to the message.
     */
    public static <T> T until(
            String what, Duration timeout, Callable<T> probe, Predicate<? super T> done, Supplier<String> diagnostics)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        T last = null;
        Exception lastFailure = null;
        while (true) {
            try {
                last = probe.call();
                lastFailure = null;
                if (done.test(last)) {
                    return last;
                }
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                lastFailure = e;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(
                        "not within " + timeout + ": " + what + "; last seen: " + last
                                + (lastFailure == null ? "" : "; last probe failure: " + lastFailure)
                                + diagnosticsOrEmpty(diagnostics.get()),
                        lastFailure);
            }
            Thread.sleep(INTERVAL.toMillis());
        }
    }

    private static String diagnosticsOrEmpty(String diagnostics) {
        return diagnostics == null || diagnostics.isEmpty() ? "" : "\n" + diagnostics;
    }
}
