package io.sluice.it.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.it.InProcessTool;
import io.sluice.testkit.Poll;
import io.sluice.testkit.ProcessResult;
import io.sluice.testkit.security.TestSecurity;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.message.CreateAclsRequestData;
import org.apache.kafka.common.message.DeleteAclsRequestData;
import org.apache.kafka.common.message.SaslAuthenticateRequestData;
import org.apache.kafka.common.message.SaslHandshakeRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.CreateAclsRequest;
import org.apache.kafka.common.requests.CreateAclsResponse;
import org.apache.kafka.common.requests.DeleteAclsRequest;
import org.apache.kafka.common.requests.DeleteAclsResponse;
import org.apache.kafka.common.requests.DescribeAclsRequest;
import org.apache.kafka.common.requests.DescribeAclsResponse;
import org.apache.kafka.common.requests.SaslAuthenticateRequest;
import org.apache.kafka.common.requests.SaslAuthenticateResponse;
import org.apache.kafka.common.requests.SaslHandshakeRequest;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * ACLs on three brokers in their own JVMs, SASL_PLAINTEXT with PLAIN logins, Kafka's AclAuthorizer configured and the
 * brokers' own login a super user: Apache Kafka 3.9's {@code kafka-acls.sh} (AclCommand run in-process) adds, lists
 * and removes an ACL, each time through a different broker; the controller stores it in the cluster state and every
 * broker enforces it: a producer writes to a partition led by each broker once the ACL is there, and is refused by
 * each leader once it is gone. CreateAcls and DeleteAcls sent to a broker that is not the controller are forwarded to
 * it, and every broker then answers DescribeAcls with the change.
 */
class AclClusterTest extends ClusterTestBase {
    private static final String TOPIC = "acl-spread";
    private static final String ACL_COMMAND = "kafka.admin.AclCommand";
    private static final Duration TOOL_TIMEOUT = Duration.ofMinutes(2);
    private TestSecurity security;

    @Override
    List<String> brokerOverrides() {
        security = makeSecurity();
        List<String> settings = new ArrayList<>(security.brokerSettings("SASL_PLAINTEXT", "PLAIN"));
        settings.add("sasl.enabled.mechanisms=PLAIN");
        settings.add("authorizer.class.name=kafka.security.authorizer.AclAuthorizer");
        settings.add("super.users=User:" + TestSecurity.BROKER_USER);
        return settings;
    }

    @Override
    Map<String, String> clientSecurity() {
        return superUser();
    }

    private Map<String, String> superUser() {
        Map<String, String> props =
                new HashMap<>(security.clientProperties("SASL_PLAINTEXT", "PLAIN", TestSecurity.PASSWORD, false));
        props.put(
                "sasl.jaas.config",
                "org.apache.kafka.common.security.plain.PlainLoginModule required username=\""
                        + TestSecurity.BROKER_USER + "\" password=\"" + TestSecurity.BROKER_PASSWORD + "\";");
        return props;
    }

    private ProcessResult acls(String bootstrap, String... args) throws IOException {
        Path config = work.resolve("acl-command.properties");
        Properties props = new Properties();
        props.putAll(superUser());
        try (Writer out = Files.newBufferedWriter(config)) {
            props.store(out, null);
        }
        List<String> all =
                new ArrayList<>(List.of("--bootstrap-server", bootstrap, "--command-config", config.toString()));
        all.addAll(List.of(args));
        ProcessResult result = InProcessTool.run(ACL_COMMAND, new byte[0], TOOL_TIMEOUT, all.toArray(new String[0]));
        assertTrue(result.succeeded(), result::describe);
        return result;
    }

    /** Sends one record to {@code partition} as alice with a fresh producer; the failure's cause, null on success. */
    private Throwable aliceSends(int partition) throws Exception {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrap());
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false");
        props.put(ProducerConfig.ACKS_CONFIG, "1");
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "20000");
        props.putAll(security.clientProperties("SASL_PLAINTEXT", "PLAIN", TestSecurity.PASSWORD, false));
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>(TOPIC, partition, "k", "v")).get(30, TimeUnit.SECONDS);
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }

    /** A raw connection to broker {@code id}, logged in with PLAIN as the brokers' own (super) user. */
    private RawConnection superUserOn(int id) throws IOException {
        RawConnection c = RawConnection.open(cluster.broker(id).bootstrap(), SETTLE);
        c.call(
                new SaslHandshakeRequest.Builder(new SaslHandshakeRequestData().setMechanism("PLAIN")),
                ApiKeys.SASL_HANDSHAKE,
                (short) 1);
        SaslAuthenticateResponse login = c.call(
                new SaslAuthenticateRequest.Builder(new SaslAuthenticateRequestData()
                        .setAuthBytes(("\u0000" + TestSecurity.BROKER_USER + "\u0000" + TestSecurity.BROKER_PASSWORD)
                                .getBytes(StandardCharsets.UTF_8))),
                ApiKeys.SASL_AUTHENTICATE,
                (short) 2);
        assertEquals(Errors.NONE, login.error());
        return c;
    }

    /** The ACLs broker {@code id} itself answers DescribeAcls with (from the state it applied). */
    private List<AclBinding> describedBy(int id) throws IOException {
        try (RawConnection c = superUserOn(id)) {
            DescribeAclsResponse r =
                    c.call(new DescribeAclsRequest.Builder(AclBindingFilter.ANY), ApiKeys.DESCRIBE_ACLS, (short) 3);
            assertEquals(Errors.NONE, r.error().error());
            return List.copyOf(DescribeAclsResponse.aclBindings(r.acls()));
        }
    }

    @Test
    void shouldForwardAclWritesFromABrokerThatIsNotTheControllerAndServeThemFromEveryBroker() throws Exception {
        int controller = cluster.probe().controller().brokerId();
        int other = cluster.brokerIds().stream()
                .filter(id -> id != controller)
                .findFirst()
                .orElseThrow();
        AclBinding forwarded = new AclBinding(
                new ResourcePattern(ResourceType.GROUP, "fw-", PatternType.PREFIXED),
                new AccessControlEntry("User:" + TestSecurity.USER, "*", AclOperation.READ, AclPermissionType.ALLOW));
        try (RawConnection c = superUserOn(other)) {
            CreateAclsResponse created = c.call(
                    new CreateAclsRequest.Builder(new CreateAclsRequestData()
                            .setCreations(List.of(CreateAclsRequest.aclCreation(forwarded)))),
                    ApiKeys.CREATE_ACLS,
                    (short) 3);
            assertEquals(Errors.NONE.code(), created.results().get(0).errorCode(), created.toString());
        }
        for (int id : cluster.brokerIds()) {
            Poll.until(
                    "broker " + id + " describes the forwarded ACL",
                    SETTLE,
                    () -> describedBy(id),
                    acls -> acls.equals(List.of(forwarded)));
        }
        try (RawConnection c = superUserOn(other)) {
            DeleteAclsResponse deleted = c.call(
                    new DeleteAclsRequest.Builder(new DeleteAclsRequestData()
                            .setFilters(List.of(DeleteAclsRequest.deleteAclsFilter(new AclBindingFilter(
                                    new ResourcePatternFilter(ResourceType.GROUP, null, PatternType.ANY),
                                    AccessControlEntryFilter.ANY))))),
                    ApiKeys.DELETE_ACLS,
                    (short) 3);
            assertEquals(1, deleted.filterResults().get(0).matchingAcls().size(), deleted.toString());
        }
        for (int id : cluster.brokerIds()) {
            Poll.until("broker " + id + " forgot the deleted ACL", SETTLE, () -> describedBy(id), List::isEmpty);
        }
    }

    @Test
    void shouldEnforceAnAclAddedThroughOneBrokerOnEveryBroker() throws Exception {
        List<Integer> ids = cluster.brokerIds();
        Properties adminProps = new Properties();
        adminProps.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrap());
        adminProps.putAll(superUser());
        try (Admin admin = Admin.create(adminProps)) {
            Map<Integer, List<Integer>> onEachBroker = new HashMap<>();
            for (int p = 0; p < ids.size(); p++) {
                onEachBroker.put(p, List.of(ids.get(p)));
            }
            admin.createTopics(List.of(new NewTopic(TOPIC, onEachBroker))).all().get(60, TimeUnit.SECONDS);
            // Describe only: Metadata answers everywhere, so each refusal below is the partition leader's Produce
            // check.
            admin.createAcls(List.of(new AclBinding(
                            new ResourcePattern(ResourceType.TOPIC, TOPIC, PatternType.LITERAL),
                            new AccessControlEntry(
                                    "User:" + TestSecurity.USER, "*", AclOperation.DESCRIBE, AclPermissionType.ALLOW))))
                    .all()
                    .get(60, TimeUnit.SECONDS);
        }
        for (int p = 0; p < ids.size(); p++) {
            int partition = p;
            Poll.until(
                    "broker " + ids.get(p) + " refuses alice's write",
                    SETTLE,
                    () -> aliceSends(partition),
                    failure -> failure instanceof TopicAuthorizationException);
        }

        acls(
                cluster.broker(ids.get(0)).bootstrap(),
                "--add",
                "--allow-principal",
                "User:" + TestSecurity.USER,
                "--operation",
                "Write",
                "--topic",
                TOPIC);
        String listed = Poll.until(
                "kafka-acls.sh --list shows the ACL",
                SETTLE,
                () -> acls(cluster.broker(ids.get(1)).bootstrap(), "--list", "--topic", TOPIC)
                        .stdoutText(),
                out -> out.contains("operation=WRITE"));
        assertTrue(listed.contains("principal=User:" + TestSecurity.USER) && listed.contains("name=" + TOPIC), listed);
        for (int p = 0; p < ids.size(); p++) {
            int partition = p;
            Poll.until(
                    "broker " + ids.get(p) + " accepts alice's write",
                    SETTLE,
                    () -> aliceSends(partition),
                    failure -> failure == null);
        }

        acls(
                cluster.broker(ids.get(2)).bootstrap(),
                "--remove",
                "--force",
                "--allow-principal",
                "User:" + TestSecurity.USER,
                "--operation",
                "Write",
                "--topic",
                TOPIC);
        for (int p = 0; p < ids.size(); p++) {
            int partition = p;
            Poll.until(
                    "broker " + ids.get(p) + " refuses alice's write again",
                    SETTLE,
                    () -> aliceSends(partition),
                    failure -> failure instanceof TopicAuthorizationException);
        }
    }
}
