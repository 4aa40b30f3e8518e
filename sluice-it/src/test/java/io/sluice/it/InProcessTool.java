package io.sluice.it;

import io.sluice.testkit.ProcessResult;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.utils.Exit;

/**
 * Runs one of Apache Kafka's command-line tools (its {@code main} class from Maven Central, e.g. {@code
 * kafka.admin.ConfigCommand}) inside the test JVM, as if it ran in a JVM of its own: it reads the given stdin, what it
 * prints to stdout and stderr is captured, and its {@code Exit.exit(code)} ends the run with that exit code instead of
 * ending the test JVM; shutdown hooks it registers through {@code Exit} run when its main is done, as at a JVM's exit.
 * A tool's JVM start costs 2-4 s of CPU on the 2-core CI machine; its run in-process costs tens of milliseconds.
 *
 * <p>How: once, {@code System.out}, {@code System.err} and {@code System.in} become streams that route by thread (the
 * tool's main thread and every thread it starts go to that run's buffers; every other thread to the original
 * streams), and Kafka's {@link Exit} procedures are replaced by ones that end the calling tool run (and behave as
 * Kafka's defaults on threads that never belonged to a run). Output a tool's main thread prints after its first exit is dropped, as a
 * real exit would never have printed it.
 *
 * <p>Thread-safe: runs on different threads are kept apart.
 */
public final class InProcessTool {
    /** Upper bound on captured output per stream, so a runaway tool cannot exhaust the test heap. */
    static final int MAX_CAPTURED_BYTES = 64 * 1024 * 1024;
    /** How long the shutdown hooks of a finished run may take, all together. */
    static final Duration HOOKS_TIMEOUT = Duration.ofSeconds(30);

    private static final InheritableThreadLocal<Run> CURRENT = new InheritableThreadLocal<>();
    private static final PrintStream ORIGINAL_OUT = System.out;
    private static final PrintStream ORIGINAL_ERR = System.err;
    private static final InputStream ORIGINAL_IN = System.in;

    static {
        System.setOut(new PrintStream(new RoutedOutput(ORIGINAL_OUT, false), true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(new RoutedOutput(ORIGINAL_ERR, true), true, StandardCharsets.UTF_8));
        System.setIn(new RoutedInput());
        Exit.setExitProcedure(InProcessTool::exit);
        Exit.setHaltProcedure(InProcessTool::halt);
        Exit.setShutdownHookAdder(InProcessTool::addShutdownHook);
    }

    private InProcessTool() {}

    /**
     * Runs {@code mainClass}'s {@code main(args)} with {@code stdin} until it returns or exits; a run past
     * {@code timeout} is interrupted and reported as timed out.
     */
    public static ProcessResult run(String mainClass, byte[] stdin, Duration timeout, String... args)
            throws IOException {
        Method main;
        try {
            main = Class.forName(mainClass).getMethod("main", String[].class);
        } catch (ReflectiveOperationException e) {
            throw new IOException("no main in " + mainClass, e);
        }
        List<String> command = new ArrayList<>(List.of("(in-process)", mainClass));
        command.addAll(List.of(args));
        Run run = new Run(stdin);
        Thread thread = startAs(
                run,
                () -> run.main(main, args),
                "kafka-tool-" + main.getDeclaringClass().getSimpleName());
        run.mainThread = thread;
        try {
            thread.join(timeout.toMillis());
            boolean timedOut = thread.isAlive();
            if (timedOut) {
                thread.interrupt();
            } else {
                run.runShutdownHooks();
            }
            run.finished = true;
            return new ProcessResult(
                    List.copyOf(command),
                    timedOut ? -1 : run.exitCode(),
                    timedOut,
                    run.out.toByteArray(),
                    run.err.toString(StandardCharsets.UTF_8));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            thread.interrupt();
            throw new IOException("interrupted while running " + command, e);
        }
    }

    /**
     * Starts a daemon thread that inherits {@code run} as its context (a thread takes its inheritable thread locals when
     * it is made), leaving the caller's own context as it was.
     */
    private static Thread startAs(Run run, Runnable body, String name) {
        Run before = CURRENT.get();
        CURRENT.set(run);
        try {
            Thread thread = new Thread(body, name);
            thread.setDaemon(true);
            thread.start();
            return thread;
        } finally {
            CURRENT.set(before);
        }
    }

    /** The run of the calling thread, or null outside a live run (also a thread that outlived its run). */
    private static Run current() {
        Run run = CURRENT.get();
        return run == null || run.finished ? null : run;
    }

    private static void exit(int code, String message) {
        Run run = CURRENT.get();
        if (run == null) {
            System.exit(code);
        }
        // A thread that outlived its run (one that timed out) ends itself, never the test JVM.
        throw run.exited(code);
    }

    private static void halt(int code, String message) {
        Run run = CURRENT.get();
        if (run == null) {
            Runtime.getRuntime().halt(code);
        }
        // A thread that outlived its run (one that timed out) ends itself, never the test JVM.
        throw run.exited(code);
    }

    private static void addShutdownHook(String name, Runnable hook) {
        Run run = current();
        if (run == null) {
            Runtime.getRuntime().addShutdownHook(new Thread(hook, name == null ? "shutdown-hook" : name));
            return;
        }
        synchronized (run.hooks) {
            run.hooks.add(hook);
        }
    }

    /** Thrown through the tool's main thread by its exit: nothing after an exit runs, as in a JVM of its own. */
    private static final class ToolExit extends Error {
        private static final long serialVersionUID = 1L;

        ToolExit(int code) {
            super("tool exited with " + code, null, false, false);
        }
    }

    /** One tool run: its stdin, captured output, exit code and shutdown hooks. */
    private static final class Run {
        final InputStream in;
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final List<Runnable> hooks = new ArrayList<>();
        volatile Thread mainThread;
        volatile boolean finished;
        private volatile Integer exitCode;

        Run(byte[] stdin) {
            this.in = new ByteArrayInputStream(stdin);
        }

        void main(Method main, String[] args) {
            try {
                main.invoke(null, (Object) args);
            } catch (InvocationTargetException e) {
                if (!(e.getCause() instanceof ToolExit)) {
                    // What a JVM does with an exception out of main: its stack trace on stderr, exit code 1.
                    e.getCause().printStackTrace();
                    exited(1);
                }
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
        }

        synchronized ToolExit exited(int code) {
            if (exitCode == null) {
                exitCode = code;
            }
            return new ToolExit(exitCode);
        }

        int exitCode() {
            Integer code = exitCode;
            return code == null ? 0 : code;
        }

        /** After its exit, the main thread is as good as gone: what it would still print is dropped. */
        boolean drops() {
            return exitCode != null && Thread.currentThread() == mainThread;
        }

        void runShutdownHooks() throws InterruptedException {
            List<Thread> started = new ArrayList<>();
            synchronized (hooks) {
                for (Runnable hook : hooks) {
                    started.add(startAs(this, hook, mainThread.getName() + "-shutdown-hook"));
                }
            }
            long deadline = System.nanoTime() + HOOKS_TIMEOUT.toNanos();
            for (Thread hook : started) {
                hook.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            }
        }

        void write(boolean toErr, byte[] bytes, int offset, int length) {
            ByteArrayOutputStream target = toErr ? err : out;
            synchronized (target) {
                if (target.size() + length <= MAX_CAPTURED_BYTES) {
                    target.write(bytes, offset, length);
                }
            }
        }
    }

    /** stdout or stderr: a tool run's buffer on its threads, the original stream everywhere else. */
    private static final class RoutedOutput extends OutputStream {
        private final PrintStream original;
        private final boolean err;

        RoutedOutput(PrintStream original, boolean err) {
            this.original = original;
            this.err = err;
        }

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] bytes, int offset, int length) {
            Run run = current();
            if (run == null) {
                original.write(bytes, offset, length);
            } else if (!run.drops()) {
                run.write(err, bytes, offset, length);
            }
        }

        @Override
        public void flush() {
            if (current() == null) {
                original.flush();
            }
        }
    }

    /** stdin: a tool run's bytes on its threads, the original stream everywhere else. */
    private static final class RoutedInput extends InputStream {
        private static InputStream target() {
            Run run = current();
            return run == null ? ORIGINAL_IN : run.in;
        }

        @Override
        public int read() throws IOException {
            return target().read();
        }

        @Override
        public int read(byte[] bytes, int offset, int length) throws IOException {
            return target().read(bytes, offset, length);
        }

        @Override
        public int available() throws IOException {
            return target().available();
        }
    }
}
