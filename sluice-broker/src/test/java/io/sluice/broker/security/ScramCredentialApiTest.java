package io.sluice.broker.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sluice.broker.SluiceBroker;
import io.sluice.broker.config.BrokerConfig;
import io.sluice.testkit.Poll;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialDeletion;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.admin.UserScramCredentialsDescription;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.ResourceNotFoundException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SCRAM credentials managed with kafka-clients' admin API on one SASL_PLAINTEXT broker with ACLs: set, described and
 * deleted by a super user, refused with CLUSTER_AUTHORIZATION_FAILED to a user without Alter/Describe on the cluster;
 * a stored credential logs in with SCRAM-SHA-256 or -512 (offered without JAAS accounts), a wrong password or a
 * deleted credential does not.
 */
class ScramCredentialApiTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String PLAIN_JAAS = "org.apache.kafka.common.security.plain.PlainLoginModule required "
            + "username=\"admin\" password=\"admin-pw\" user_admin=\"admin-pw\" user_alice=\"alice-pw\";";

    @TempDir
    static Path dataDir;

    static SluiceBroker broker;
    static Admin admin;

    @BeforeAll
    static void start() throws Exception {
        Map<String, String> props = new HashMap<>();
        props.put("log.dirs", dataDir.resolve("scram").toString());
        props.put("listeners", "SASL_PLAINTEXT://127.0.0.1:0");
        props.put("sasl.enabled.mechanisms", "PLAIN,SCRAM-SHA-256,SCRAM-SHA-512");
        props.put("listener.name.sasl_plaintext.plain.sasl.jaas.config", PLAIN_JAAS);
        props.put("authorizer.class.name", "kafka.security.authorizer.AclAuthorizer");
        props.put("super.users", "User:admin");
        broker = SluiceBroker.start(BrokerConfig.fromMap(props));
        admin = Admin.create(client("PLAIN", "admin", "admin-pw"));
    }

    @AfterAll
    static void stop() {
        admin.close();
        broker.close();
    }

    static Properties client(String mechanism, String user, String password) {
        String module = mechanism.equals("PLAIN")
                ? "org.apache.kafka.common.security.plain.PlainLoginModule"
                : "org.apache.kafka.common.security.scram.ScramLoginModule";
        Properties p = new Properties();
        p.put(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "127.0.0.1:" + broker.boundAddress().getPort());
        p.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT");
        p.put("sasl.mechanism", mechanism);
        p.put("sasl.jaas.config", module + " required username=\"" + user + "\" password=\"" + password + "\";");
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000);
        return p;
    }

    /** Logs in with {@code mechanism} and lists topics; throws the cause of a failure. */
    static void login(String mechanism, String user, String password) throws Exception {
        try (Admin a = Admin.create(client(mechanism, user, password))) {
            a.listTopics().names().get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    private static boolean refusesLogin(String mechanism, String password) throws Exception {
        try {
            login(mechanism, "carol", password);
            return false;
        } catch (SaslAuthenticationException refused) {
            return true;
        }
    }

    @Test
    void shouldSetDescribeAndDeleteCredentialsThatLogInUntilDeleted() throws Exception {
        admin.alterUserScramCredentials(List.of(
                        new UserScramCredentialUpsertion(
                                "carol", new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 8192), "carol-256"),
                        new UserScramCredentialUpsertion(
                                "carol", new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), "carol-512")))
                .all()
                .get();
        // The controller answers once the change is written; this broker applies it moments later.
        UserScramCredentialsDescription carol = Poll.until(
                "both credentials applied",
                WAIT,
                () -> admin.describeUserScramCredentials(List.of("carol"))
                        .description("carol")
                        .get(),
                d -> d.credentialInfos().size() == 2);
        assertEquals(
                List.of(
                        new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 8192),
                        new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096)),
                carol.credentialInfos());
        assertEquals(
                List.of("carol"), admin.describeUserScramCredentials().users().get());

        login("SCRAM-SHA-256", "carol", "carol-256");
        login("SCRAM-SHA-512", "carol", "carol-512");
        assertThrows(SaslAuthenticationException.class, () -> login("SCRAM-SHA-256", "carol", "carol-512"));
        assertThrows(SaslAuthenticationException.class, () -> login("SCRAM-SHA-256", "dave", "x"));

        admin.alterUserScramCredentials(List.of(new UserScramCredentialDeletion("carol", ScramMechanism.SCRAM_SHA_256)))
                .all()
                .get();
        Poll.until(
                "the deleted credential refuses logins",
                WAIT,
                () -> refusesLogin("SCRAM-SHA-256", "carol-256"),
                refused -> refused);
        login("SCRAM-SHA-512", "carol", "carol-512");

        ExecutionException absent = assertThrows(
                ExecutionException.class,
                () -> admin.alterUserScramCredentials(
                                List.of(new UserScramCredentialDeletion("carol", ScramMechanism.SCRAM_SHA_256)))
                        .all()
                        .get());
        assertInstanceOf(ResourceNotFoundException.class, absent.getCause());
        admin.alterUserScramCredentials(List.of(new UserScramCredentialDeletion("carol", ScramMechanism.SCRAM_SHA_512)))
                .all()
                .get();
        Poll.until(
                "no user has a credential",
                WAIT,
                () -> admin.describeUserScramCredentials().users().get(),
                List::isEmpty);
        ExecutionException gone = assertThrows(
                ExecutionException.class,
                () -> admin.describeUserScramCredentials(List.of("carol"))
                        .description("carol")
                        .get());
        assertInstanceOf(ResourceNotFoundException.class, gone.getCause());
    }

    @Test
    void shouldRefuseUsersWithoutClusterPermission() {
        try (Admin alice = Admin.create(client("PLAIN", "alice", "alice-pw"))) {
            ExecutionException alter = assertThrows(
                    ExecutionException.class,
                    () -> alice.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion(
                                    "alice", new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 4096), "pw")))
                            .all()
                            .get());
            assertInstanceOf(ClusterAuthorizationException.class, alter.getCause());
            ExecutionException describe = assertThrows(
                    ExecutionException.class,
                    () -> alice.describeUserScramCredentials().all().get());
            assertInstanceOf(ClusterAuthorizationException.class, describe.getCause());
        }
    }
}
