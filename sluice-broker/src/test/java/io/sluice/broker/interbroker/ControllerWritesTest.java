package io.sluice.broker.interbroker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.config.ForwardingConfig;
import io.sluice.broker.security.ClientSecurity;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.message.CreateAclsRequestData;
import org.apache.kafka.common.message.CreateAclsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.junit.jupiter.api.Test;

/** ControllerWrites retries a forward that finds no controller for the channel's configured forwarding wait. */
class ControllerWritesTest {

    @Test
    void shouldAnswerAtOnceWhenTheConfiguredForwardWaitIsZero() throws Exception {
        AtomicInteger asked = new AtomicInteger();
        try (ControllerChannel channel = channelWithoutController(asked, new ForwardingConfig(0, 1))) {
            CreateAclsResponseData answer = write(channel);

            assertEquals(1, asked.get(), "one attempt, no retry");
            assertEquals("no controller is known", answer.results().get(0).errorMessage());
        }
    }

    @Test
    void shouldRetryUntilTheConfiguredForwardWaitIsOver() throws Exception {
        AtomicInteger asked = new AtomicInteger();
        try (ControllerChannel channel = channelWithoutController(asked, new ForwardingConfig(200, 1))) {
            CreateAclsResponseData answer = write(channel);

            assertTrue(asked.get() > 1, "retried, asked " + asked.get() + " times");
            assertEquals("no controller is known", answer.results().get(0).errorMessage());
        }
    }

    /** A channel to a cluster with no known controller, counting how often it looks for one. */
    private static ControllerChannel channelWithoutController(AtomicInteger asked, ForwardingConfig forwarding) {
        return new ControllerChannel(
                1,
                () -> {
                    asked.incrementAndGet();
                    return null;
                },
                1_000,
                ClientSecurity.plaintext(),
                forwarding);
    }

    private static CreateAclsResponseData write(ControllerChannel channel) throws Exception {
        ControllerWrites writes = new ControllerWrites(() -> null, channel);
        return writes.write(
                        node -> {
                            throw new AssertionError("no node: the change is forwarded");
                        },
                        ApiKeys.CREATE_ACLS,
                        (short) 3,
                        new CreateAclsRequestData(),
                        readable -> new CreateAclsResponseData(readable, (short) 3),
                        failure -> {
                            assertTrue(failure instanceof IOException, failure.toString());
                            CreateAclsResponseData failed = new CreateAclsResponseData();
                            failed.results()
                                    .add(new CreateAclsResponseData.AclCreationResult()
                                            .setErrorMessage(failure.getMessage()));
                            return failed;
                        })
                .get(30, TimeUnit.SECONDS);
    }
}
