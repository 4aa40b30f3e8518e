package io.sluice.testkit;

import java.net.InetAddress;
import java.net.ServerSocket;

/**
 * Stands in for {@code io.sluice.cli.SluiceCli} in {@link SluiceBrokerProcessTest}: binds a loopback port and
 * prints the ready line, or exits early when given {@code --override fake.fail=true}, or never
 * prints it with {@code --override fake.silent=true}.
 *
 * <p>Packaged alone into a jar by {@link FakeBrokerDistribution}: it must not refer to any other class of ours.
 *
 * <p>Not thread-safe; runs as a child process's main.
 */
public final class FakeBrokerMain {

    public static final int FAILURE_EXIT_CODE = 3;

    private FakeBrokerMain() {}

    public static void main(String[] args) throws Exception {
        for (String arg : args) {
            if (arg.equals("fake.silent=true")) {
                System.out.println("fake broker never gets ready");
                System.out.flush();
                Thread.sleep(Long.MAX_VALUE);
            }
            if (arg.equals("fake.fail=true")) {
                System.err.println("fake broker refusing to start: fake.fail=true");
                System.exit(FAILURE_EXIT_CODE);
            }
        }
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println("fake broker stopping")));
            System.out.println("some startup chatter");
            System.out.println("Sluice broker 7 started, listening on 127.0.0.1:" + server.getLocalPort());
            System.out.flush();
            Thread.sleep(Long.MAX_VALUE);
        }
    }
}
