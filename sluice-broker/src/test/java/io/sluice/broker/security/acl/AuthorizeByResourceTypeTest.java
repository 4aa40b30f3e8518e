package io.sluice.broker.security.acl;

import static io.sluice.broker.security.acl.AclAuthorizerTest.acl;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.network.RequestContext;
import io.sluice.cluster.state.AclEntry;
import io.sluice.cluster.state.ClusterState;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.junit.jupiter.api.Test;

/**
 * Kafka's {@code authorizeByResourceType} ({@link AclAuthorizer#authorizeAny}), which InitProducerId asks for Write on
 * topics: an ALLOW counts unless a DENY on the same literal or a covering prefix (or the wildcard) takes it away.
 */
class AuthorizeByResourceTypeTest {
    private static final RequestContext ALICE = new RequestContext(
            new RequestHeader(ApiKeys.INIT_PRODUCER_ID, (short) 4, "client", 1),
            "10.0.0.1",
            "c1",
            new KafkaPrincipal("User", "alice"),
            "SASL_PLAINTEXT",
            AclAuthorizer.disabled());

    private static boolean anyWrite(String superUsers, boolean allowEveryone, AclEntry... acls) {
        ClusterState state = ClusterState.of(1, 0, List.of(), List.of(), Map.of(), List.of(acls));
        return new AclAuthorizer(true, superUsers, allowEveryone, () -> state)
                .authorizeAny(ALICE, AclOperation.WRITE, ResourceType.TOPIC);
    }

    private static AclEntry write(String name, byte pattern, byte permission) {
        return acl(ResourceType.TOPIC, name, pattern, "User:alice", "*", AclOperation.WRITE, permission);
    }

    @Test
    void shouldAllowWhenSomeTopicMayBeWritten() {
        assertTrue(anyWrite("", false, write("orders", AclEntry.LITERAL, AclEntry.ALLOW)));
        assertTrue(anyWrite("", false, write("pay-", AclEntry.PREFIXED, AclEntry.ALLOW)));
        assertTrue(anyWrite("User:alice", false), "a super user");
        assertFalse(anyWrite("", false), "no ACL at all");
        assertTrue(anyWrite("", true), "no ACL at all, open by allow.everyone.if.no.acl.found");
        assertFalse(
                anyWrite(
                        "",
                        false,
                        acl(
                                ResourceType.TOPIC,
                                "orders",
                                AclEntry.LITERAL,
                                "User:alice",
                                "*",
                                AclOperation.READ,
                                AclEntry.ALLOW)),
                "Read is not Write");
    }

    @Test
    void shouldLetDenyOnTheSameOrAWiderPatternWin() {
        assertFalse(anyWrite(
                "",
                false,
                write("orders", AclEntry.LITERAL, AclEntry.ALLOW),
                write("orders", AclEntry.LITERAL, AclEntry.DENY)));
        assertFalse(anyWrite(
                "",
                false,
                write("pay-eu", AclEntry.LITERAL, AclEntry.ALLOW),
                write("pay-", AclEntry.PREFIXED, AclEntry.DENY)));
        assertFalse(anyWrite(
                "",
                false,
                write("orders", AclEntry.LITERAL, AclEntry.ALLOW),
                write("*", AclEntry.LITERAL, AclEntry.DENY)));
        assertTrue(
                anyWrite(
                        "",
                        false,
                        write("pay-", AclEntry.PREFIXED, AclEntry.ALLOW),
                        write("pay-eu", AclEntry.LITERAL, AclEntry.DENY)),
                "a narrower deny leaves the rest of the prefix");
    }
}
