#!/usr/bin/env bash
# Reference run: the end-to-end suites of sluice-it and sluice-it-clients4 against Apache Kafka 3.9.1 (KRaft, single
# node, Maven Central jars) instead of Sluice, to show that what the tests expect is what Kafka does.
#
# It builds a stand-in "sluice-cli" distribution under sluice-bench/peer/target/kafka-as-sluice whose
# io.sluice.cli.SluiceCli honours the broker-process contract (server --data-dir --listen --override k=v, one ready
# line "Sluice broker <id> started, listening on <host>:<port>", SIGTERM stops) by running kafka.Kafka in-process,
# then runs the suites' single-broker tests with -Dsluice.cli.dir=<that dir>. Excluded: the group tests; the
# multi-broker tests (cluster, move, ReplicatedClientsTest: they start several brokers on a ZooKeeper ensemble, which
# the stand-in does not model); and the security tests (SecureClientsTest, KcatSecurityTest, SecurityBadInputTest,
# ReauthenticationTest: they give the broker its listeners with --override listeners=..., and the stand-in picks its
# own). The modules they need are built in the same reactor (-am; their own tests are not run), so nothing has to
# be installed in ~/.m2 first.
#
# Usage: sluice-bench/peer/run-it-against-kafka.sh [extra mvn args, e.g. -Dtest=BadInputTest]
# Needs the build's dependencies in ~/.m2 (any earlier `mvn -B verify` or `package` fetched them; runs offline).
# Known difference: CorruptionRecoveryTest.shouldServeEverythingValidAfterGarbageAppendedWhileCleanlyStopped fails on
# Kafka, which trusts segment files after a clean shutdown and so serves fewer records than were valid.
set -euo pipefail

KAFKA_VERSION=3.9.1
SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_DIR="$(cd "$SCRIPT_DIR/../.." && pwd)"
WORK_DIR="$SCRIPT_DIR/target"
KAFKA_LIB="$WORK_DIR/kafka-$KAFKA_VERSION-lib"
DIST="$WORK_DIR/kafka-as-sluice"
JAVA_HOME_BIN="${JAVA_HOME:+$JAVA_HOME/bin/}"

log() { printf '[%s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
# shellcheck source=kafka-lib.sh
source "$SCRIPT_DIR/kafka-lib.sh"

fetch_kafka
rm -rf "$DIST"
mkdir -p "$DIST/src/io/sluice/cli" "$DIST/classes"
cat > "$DIST/src/io/sluice/cli/SluiceCli.java" <<'JAVA'
package io.sluice.cli;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;

/** Apache Kafka (KRaft, one node) behind the sluice-cli "server" contract, for reference runs of the tests. */
public final class SluiceCli {
    private static final String CLUSTER_ID = "q1Sh-9_ISia_zwGINzRvyQ";

    public static void main(String[] args) throws Exception {
        Path dataDir = null;
        StringBuilder overrides = new StringBuilder();
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "--data-dir" -> dataDir = Path.of(args[++i]);
                case "--listen" -> i++;
                case "--override" -> overrides.append(args[++i]).append('\n');
                default -> throw new IllegalArgumentException("unsupported argument " + args[i]);
            }
        }
        if (dataDir == null) {
            throw new IllegalArgumentException("--data-dir is required");
        }
        int port = freePort();
        int controllerPort = freePort();
        Files.createDirectories(dataDir);
        Path props = dataDir.resolveSibling(dataDir.getFileName() + "-kafka.properties");
        Files.writeString(props, String.join("\n",
                "process.roles=broker,controller",
                "node.id=1",
                "controller.quorum.voters=1@127.0.0.1:" + controllerPort,
                "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort,
                "advertised.listeners=PLAINTEXT://127.0.0.1:" + port,
                "controller.listener.names=CONTROLLER",
                "inter.broker.listener.name=PLAINTEXT",
                "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                "log.dirs=" + dataDir,
                "offsets.topic.replication.factor=1",
                "transaction.state.log.replication.factor=1",
                "transaction.state.log.min.isr=1",
                "group.initial.rebalance.delay.ms=0", "") + overrides);
        if (!Files.exists(dataDir.resolve("meta.properties"))) {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Process format = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                    "kafka.tools.StorageTool", "format", "-t", CLUSTER_ID, "-c", props.toString()).inheritIO().start();
            if (format.waitFor() != 0) {
                throw new IllegalStateException("kafka-storage format failed with exit code " + format.exitValue());
            }
        }
        Thread ready = new Thread(() -> announceWhenListening(port), "ready-announcer");
        ready.setDaemon(true);
        ready.start();
        kafka.Kafka.main(new String[] {props.toString()});
    }

    private static void announceWhenListening(int port) {
        for (int attempt = 0; attempt < 1200; attempt++) {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
                Thread.sleep(1000); // let the broker finish registering before clients arrive
                System.out.println("Sluice broker 1 started, listening on 127.0.0.1:" + port);
                return;
            } catch (IOException notYet) {
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
JAVA
"${JAVA_HOME_BIN}javac" -d "$DIST/classes" -cp "$KAFKA_LIB/*" "$DIST/src/io/sluice/cli/SluiceCli.java"
"${JAVA_HOME_BIN}jar" cf "$DIST/sluice-cli.jar" -C "$DIST/classes" io
ln -sfn "$KAFKA_LIB" "$DIST/lib"
log "stand-in distribution ready: $DIST"

cd "$REPO_DIR"
mvn -B -o -pl sluice-it,sluice-it-clients4 -am test -Dsluice.cli.dir="$DIST" \
  -Dtest='io/sluice/it/**/*Test,!io/sluice/it/group/**,!io/sluice/it/cluster/**,!io/sluice/it/move/**,!**/ReplicatedClientsTest,!**/SecureClientsTest,!**/KcatSecurityTest,!**/SecurityBadInputTest,!**/ReauthenticationTest' \
  -Dsurefire.failIfNoSpecifiedTests=false -Dmaven.test.failure.ignore=true "$@"
