package io.sluice.broker.security.acl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.network.ApiRegistry;
import io.sluice.cluster.state.AclEntry;
import io.sluice.cluster.state.ClusterState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.junit.jupiter.api.Test;

/**
 * Kafka's ACL semantics in {@link AclAuthorizer}: literal, wildcard and prefixed patterns, deny over allow, the
 * operations that imply Describe and DescribeConfigs, super users, {@code allow.everyone.if.no.acl.found}, and a
 * property against a reference model that scans every entry.
 */
class AclAuthorizerTest {
    private static final String ALICE = "User:alice";
    private static final String HOST = "10.0.0.1";

    static AclEntry acl(
            ResourceType type,
            String name,
            byte pattern,
            String principal,
            String host,
            AclOperation op,
            byte permission) {
        return new AclEntry(type.code(), name, pattern, principal, host, op.code(), permission);
    }

    static AclEntry allowTopic(String name, byte pattern, AclOperation op) {
        return acl(ResourceType.TOPIC, name, pattern, ALICE, "*", op, AclEntry.ALLOW);
    }

    static AclAuthorizer authorizer(String superUsers, boolean allowEveryone, AclEntry... acls) {
        ClusterState state = ClusterState.of(1, 0, List.of(), List.of(), Map.of(), List.of(acls));
        return new AclAuthorizer(true, superUsers, allowEveryone, () -> state);
    }

    @Test
    void shouldDenyWithoutAnAclAndAllowWithOne() {
        AclAuthorizer none = authorizer("", false);
        assertFalse(none.authorize(ALICE, HOST, AclOperation.READ, ResourceType.TOPIC, "orders"));
        assertTrue(
                authorizer("", true).authorize(ALICE, HOST, AclOperation.READ, ResourceType.TOPIC, "orders"),
                "allow.everyone.if.no.acl.found opens a resource no ACL names");
        AclAuthorizer one = authorizer("", true, allowTopic("orders", AclEntry.LITERAL, AclOperation.READ));
        assertTrue(one.authorize(ALICE, HOST, AclOperation.READ, ResourceType.TOPIC, "orders"));
        assertFalse(
                one.authorize("User:bob", HOST, AclOperation.READ, ResourceType.TOPIC, "orders"),
                "a named resource is closed to others even with allow.everyone.if.no.acl.found");
        assertFalse(one.authorize(ALICE, HOST, AclOperation.WRITE, ResourceType.TOPIC, "orders"));
        assertTrue(
                one.authorize(ALICE, HOST, AclOperation.READ, ResourceType.GROUP, "orders"),
                "a group of the same name is another resource, which no ACL names");
        AclAuthorizer closed = authorizer("", false, allowTopic("orders", AclEntry.LITERAL, AclOperation.READ));
        assertFalse(closed.authorize(ALICE, HOST, AclOperation.READ, ResourceType.GROUP, "orders"), "other type");
    }

    @Test
    void shouldMatchWildcardAndPrefixedPatterns() {
        AclAuthorizer a = authorizer(
                "",
                false,
                allowTopic("*", AclEntry.LITERAL, AclOperation.WRITE),
                allowTopic("pay-", AclEntry.PREFIXED, AclOperation.READ));
        assertTrue(a.authorize(ALICE, HOST, AclOperation.WRITE, ResourceType.TOPIC, "anything"));
        assertTrue(a.authorize(ALICE, HOST, AclOperation.READ, ResourceType.TOPIC, "pay-eu"));
        assertTrue(a.authorize(ALICE, HOST, AclOperation.READ, ResourceType.TOPIC, "pay-"));
        assertFalse(a.authorize(ALICE, HOST, AclOperation.READ, ResourceType.TOPIC, "pa"));
        assertFalse(a.authorize(ALICE, HOST, AclOperation.READ, ResourceType.TOPIC, "xpay-eu"));
    }

    @Test
    void shouldLetDenyWinAndMatchPrincipalAndHostWildcards() {
        AclAuthorizer a = authorizer(
                "",
                false,
                allowTopic("pay-", AclEntry.PREFIXED, AclOperation.ALL),
                acl(
                        ResourceType.TOPIC,
                        "pay-secret",
                        AclEntry.LITERAL,
                        "User:*",
                        HOST,
                        AclOperation.READ,
                        AclEntry.DENY));
        assertTrue(a.authorize(ALICE, "10.0.0.2", AclOperation.READ, ResourceType.TOPIC, "pay-secret"));
        assertFalse(a.authorize(ALICE, HOST, AclOperation.READ, ResourceType.TOPIC, "pay-secret"));
        assertTrue(
                a.authorize(ALICE, HOST, AclOperation.DESCRIBE, ResourceType.TOPIC, "pay-secret"),
                "a deny on Read does not deny Describe");
        assertTrue(a.authorize(ALICE, HOST, AclOperation.WRITE, ResourceType.TOPIC, "pay-secret"));
    }

    @Test
    void shouldImplyDescribeAndDescribeConfigsAsKafkaDoes() {
        for (AclOperation op :
                List.of(AclOperation.READ, AclOperation.WRITE, AclOperation.DELETE, AclOperation.ALTER)) {
            AclAuthorizer a = authorizer("", false, allowTopic("t", AclEntry.LITERAL, op));
            assertTrue(
                    a.authorize(ALICE, HOST, AclOperation.DESCRIBE, ResourceType.TOPIC, "t"), op + " implies Describe");
            assertFalse(a.authorize(ALICE, HOST, AclOperation.DESCRIBE_CONFIGS, ResourceType.TOPIC, "t"));
        }
        AclAuthorizer configs = authorizer("", false, allowTopic("t", AclEntry.LITERAL, AclOperation.ALTER_CONFIGS));
        assertTrue(configs.authorize(ALICE, HOST, AclOperation.DESCRIBE_CONFIGS, ResourceType.TOPIC, "t"));
        assertFalse(configs.authorize(ALICE, HOST, AclOperation.DESCRIBE, ResourceType.TOPIC, "t"));
        AclAuthorizer create = authorizer("", false, allowTopic("t", AclEntry.LITERAL, AclOperation.CREATE));
        assertFalse(
                create.authorize(ALICE, HOST, AclOperation.DESCRIBE, ResourceType.TOPIC, "t"),
                "Create does not imply Describe");
        AclAuthorizer all = authorizer("", false, allowTopic("t", AclEntry.LITERAL, AclOperation.ALL));
        for (AclOperation op : List.of(AclOperation.READ, AclOperation.DESCRIBE, AclOperation.ALTER_CONFIGS)) {
            assertTrue(all.authorize(ALICE, HOST, op, ResourceType.TOPIC, "t"), "ALL grants " + op);
        }
    }

    @Test
    void shouldLetSuperUsersDoAnythingAndDisabledAllowEverything() {
        AclAuthorizer a = authorizer(
                " User:admin ; User:broker",
                false,
                acl(
                        ResourceType.CLUSTER,
                        "kafka-cluster",
                        AclEntry.LITERAL,
                        "User:*",
                        "*",
                        AclOperation.ALL,
                        AclEntry.DENY));
        assertTrue(
                a.authorize("User:broker", HOST, AclOperation.CLUSTER_ACTION, ResourceType.CLUSTER, "kafka-cluster"));
        assertTrue(a.authorize("User:admin", HOST, AclOperation.ALTER, ResourceType.TOPIC, "x"));
        assertFalse(a.authorize(ALICE, HOST, AclOperation.DESCRIBE, ResourceType.CLUSTER, "kafka-cluster"));
        assertTrue(AclAuthorizer.disabled().authorize(ALICE, HOST, AclOperation.ALTER, ResourceType.CLUSTER, "c"));
    }

    @Test
    void shouldLetOnlyClusterActionUseThePrivateApis() {
        AclAuthorizer a = authorizer(
                "User:broker",
                false,
                acl(
                        ResourceType.CLUSTER,
                        "kafka-cluster",
                        AclEntry.LITERAL,
                        "User:mover",
                        "*",
                        AclOperation.CLUSTER_ACTION,
                        AclEntry.ALLOW));
        ApiRegistry registry = new ApiRegistry().authorizeWith(a);
        assertTrue(registry.mayUsePrivate(new KafkaPrincipal("User", "broker"), HOST), "a super user");
        assertTrue(registry.mayUsePrivate(new KafkaPrincipal("User", "mover"), HOST), "ClusterAction on the cluster");
        assertFalse(registry.mayUsePrivate(new KafkaPrincipal("User", "alice"), HOST));
        assertTrue(new ApiRegistry().mayUsePrivate(KafkaPrincipal.ANONYMOUS, HOST), "no authorizer: as before");
    }

    @Property(tries = 400)
    void shouldAgreeWithAReferenceModel(
            @ForAll("acls") List<AclEntry> acls,
            @ForAll("names") String name,
            @ForAll("principals") String principal,
            @ForAll("hosts") String host,
            @ForAll("operations") AclOperation op,
            @ForAll boolean allowEveryone) {
        AclAuthorizer a = authorizer("User:root", allowEveryone, acls.toArray(new AclEntry[0]));
        assertEquals(
                model(acls, principal, host, op, name, allowEveryone),
                a.authorize(principal, host, op, ResourceType.TOPIC, name));
    }

    /** The rules written out plainly: scan every entry. */
    private static boolean model(
            List<AclEntry> acls, String principal, String host, AclOperation op, String name, boolean allowEveryone) {
        if (principal.equals("User:root")) {
            return true;
        }
        List<AclEntry> onResource = new ArrayList<>();
        for (AclEntry e : acls) {
            boolean nameMatches = e.patternType() == AclEntry.LITERAL
                    ? e.resourceName().equals(name) || e.resourceName().equals("*")
                    : name.startsWith(e.resourceName());
            if (e.resourceType() == ResourceType.TOPIC.code() && nameMatches) {
                onResource.add(e);
            }
        }
        if (onResource.isEmpty()) {
            return allowEveryone;
        }
        boolean allowed = false;
        for (AclEntry e : onResource) {
            boolean who = (e.principal().equals(principal) || e.principal().equals("User:*"))
                    && (e.host().equals(host) || e.host().equals("*"));
            if (!who) {
                continue;
            }
            AclOperation granted = AclOperation.fromCode(e.operation());
            if (e.permissionType() == AclEntry.DENY && (granted == op || granted == AclOperation.ALL)) {
                return false;
            }
            boolean implies = granted == op
                    || granted == AclOperation.ALL
                    || (op == AclOperation.DESCRIBE
                            && List.of(AclOperation.READ, AclOperation.WRITE, AclOperation.DELETE, AclOperation.ALTER)
                                    .contains(granted))
                    || (op == AclOperation.DESCRIBE_CONFIGS && granted == AclOperation.ALTER_CONFIGS);
            allowed |= e.permissionType() == AclEntry.ALLOW && implies;
        }
        return allowed;
    }

    @Provide
    Arbitrary<List<AclEntry>> acls() {
        Arbitrary<AclEntry> entry = Combinators.combine(
                        Arbitraries.of(ResourceType.TOPIC, ResourceType.GROUP),
                        Arbitraries.of("a", "ab", "abc", "b", "*"),
                        Arbitraries.of(AclEntry.LITERAL, AclEntry.PREFIXED),
                        principals(),
                        hosts(),
                        operations(),
                        Arbitraries.of(AclEntry.ALLOW, AclEntry.DENY))
                .as((type, n, pattern, who, host, op, perm) ->
                        acl(type, n, pattern, who.equals("User:root") ? "User:*" : who, host, op, perm));
        return entry.list().ofMaxSize(8);
    }

    @Provide
    Arbitrary<String> names() {
        return Arbitraries.of("a", "ab", "abc", "b", "bc", "*");
    }

    @Provide
    Arbitrary<String> principals() {
        return Arbitraries.of("User:alice", "User:bob", "User:*", "User:root");
    }

    @Provide
    Arbitrary<String> hosts() {
        return Arbitraries.of("10.0.0.1", "10.0.0.2", "*");
    }

    @Provide
    Arbitrary<AclOperation> operations() {
        return Arbitraries.of(
                AclOperation.READ,
                AclOperation.WRITE,
                AclOperation.DESCRIBE,
                AclOperation.ALTER,
                AclOperation.ALTER_CONFIGS,
                AclOperation.DESCRIBE_CONFIGS,
                AclOperation.ALL,
                AclOperation.DELETE);
    }
}
