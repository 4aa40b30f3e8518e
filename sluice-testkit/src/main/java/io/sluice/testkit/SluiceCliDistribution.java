package io.sluice.testkit;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the built {@code sluice} command lives ({@code sluice-cli/target/sluice-cli.jar} plus {@code lib/*.jar})
 * and the {@code java} command line that starts a broker from it.
 *
 * <p>Immutable; thread-safe.
 */
public final class SluiceCliDistribution {

    /** System property set by the integration-test modules' surefire configuration. */
    public static final String CLI_DIR_PROPERTY = "sluice.cli.dir";
    /** Heap of the broker JVM: enough for the test workloads, small enough for two brokers on a 2-core CI box. */
    public static final String BROKER_MAX_HEAP = "-Xmx512m";
    /**
     * JVM flags of every test broker and {@code sluice} command: the client compiler only and the serial collector,
     * which cut a broker start's CPU by about 40% on the 2-core CI machine (C2's compile threads and G1's concurrent
     * threads compete with the other brokers there); test workloads are too short for C2's code to pay off.
     */
    public static final List<String> JVM_FLAGS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

    static final String MAIN_CLASS = "io.sluice.cli.SluiceCli";
    static final String CLI_JAR = "sluice-cli.jar";
    static final String LIB_DIR = "lib";

    private final Path cliDir;
    private final String mainClass;

    public SluiceCliDistribution(Path cliDir) {
        this(cliDir, MAIN_CLASS);
    }

    /** A distribution whose entry point is {@code mainClass} instead of {@code io.sluice.cli.SluiceCli}. */
    public SluiceCliDistribution(Path cliDir, String mainClass) {
        this.cliDir = cliDir.toAbsolutePath().normalize();
        this.mainClass = mainClass;
    }

    /**
     * The distribution named by the {@code sluice.cli.dir} system property, else {@code ../sluice-cli/target}
     * relative to the working directory (a module directory when run by Maven).
     */
    public static SluiceCliDistribution fromEnvironment() {
        String configured = System.getProperty(CLI_DIR_PROPERTY);
        Path dir = configured != null ? Path.of(configured) : Path.of("..", "sluice-cli", "target");
        return new SluiceCliDistribution(dir);
    }

    public Path cliDir() {
        return cliDir;
    }

    /** Whether its entry point is the real {@code sluice} command (not a test's stand-in). */
    boolean startsSluiceCli() {
        return MAIN_CLASS.equals(mainClass);
    }

    /** Fails with a message naming the missing file and how to build it. */
    public void requireBuilt() {
        Path jar = cliDir.resolve(CLI_JAR);
        Path lib = cliDir.resolve(LIB_DIR);
        if (!Files.isRegularFile(jar) || !Files.isDirectory(lib)) {
            throw new IllegalStateException("Sluice CLI is not built: expected " + jar + " (exists: "
                    + Files.isRegularFile(jar) + ") and " + lib + " (exists: " + Files.isDirectory(lib)
                    + "); build it with: mvn -B -pl sluice-cli -am install -DskipTests");
        }
    }

    /**
     * {@code java -Xmx512m <JVM_FLAGS> [-XX:SharedArchiveFile=...] -cp <jar>:<lib>/* io.sluice.cli.SluiceCli ARGS...}:
     * any {@code sluice} command, with the classes a broker starts with mapped from a {@link BrokerClassArchive}.
     */
    public List<String> command(String... args) {
        List<String> options = new ArrayList<>(JVM_FLAGS);
        options.addAll(BrokerClassArchive.jvmOptions(this, JVM_FLAGS));
        return commandWithJvmOptions(options, args);
    }

    /** {@code java -Xmx512m <jvmOptions> -cp <jar>:<lib>/* io.sluice.cli.SluiceCli ARGS...}. */
    List<String> commandWithJvmOptions(List<String> jvmOptions, String... args) {
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath =
                cliDir.resolve(CLI_JAR) + File.pathSeparator + cliDir.resolve(LIB_DIR) + File.separator + "*";
        List<String> command = new ArrayList<>();
        command.add(javaBin);
        command.add(BROKER_MAX_HEAP);
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(classPath);
        command.add(mainClass);
        command.addAll(List.of(args));
        return command;
    }

    /** {@link #command} {@code server --data-dir DIR --listen ... --override k=v ...}. */
    public List<String> serverCommand(Path dataDir, String listen, List<String> overrides) {
        List<String> command = command("server");
        command.add("--data-dir");
        command.add(dataDir.toAbsolutePath().toString());
        command.add("--listen");
        command.add(listen);
        for (String override : overrides) {
            if (override.indexOf('=') <= 0) {
                throw new IllegalArgumentException("override must be key=value, was '" + override + "'");
            }
            command.add("--override");
            command.add(override);
        }
        return command;
    }
}
