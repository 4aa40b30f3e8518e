package io.sluice.broker.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.sluice.cluster.controller.ConfigChange;
import io.sluice.cluster.controller.ConfigOperation;
import io.sluice.cluster.controller.ConfigResource;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData;
import org.junit.jupiter.api.Test;

/** The operation ids IncrementalAlterConfigs reads and forwards are kafka-clients' {@link AlterConfigOp.OpType} ids. */
class IncrementalAlterConfigsOperationIdsTest {

    @Test
    void shouldMapEveryOperationToKafkasIdBothWays() {
        for (ConfigOperation.Type type : ConfigOperation.Type.values()) {
            AlterConfigOp.OpType kafka = AlterConfigOp.OpType.valueOf(type.name());
            assertEquals(kafka.id(), IncrementalAlterConfigsHandler.operationId(type), type + " on the wire");
            assertEquals(type, IncrementalAlterConfigsHandler.operationType(kafka.id()), "Kafka's id " + kafka.id());
        }
        for (AlterConfigOp.OpType kafka : AlterConfigOp.OpType.values()) {
            assertEquals(
                    kafka.name(),
                    IncrementalAlterConfigsHandler.operationType(kafka.id()).name(),
                    "every operation Kafka defines is read");
        }
    }

    @Test
    void shouldReadNoOperationFromAnIdKafkaDoesNotDefine() {
        for (byte id : new byte[] {-1, 4, 5, Byte.MAX_VALUE, Byte.MIN_VALUE}) {
            assertNull(IncrementalAlterConfigsHandler.operationType(id), "id " + id);
        }
    }

    @Test
    void shouldForwardEachOperationWithKafkasId() {
        List<ConfigOperation> ops = new ArrayList<>();
        for (ConfigOperation.Type type : ConfigOperation.Type.values()) {
            ops.add(new ConfigOperation(type, "key." + type, "v"));
        }
        IncrementalAlterConfigsRequestData forwarded = IncrementalAlterConfigsHandler.toRequest(
                List.of(new ConfigChange(new ConfigResource(ConfigResource.Type.TOPIC, "t"), ops, false)), false);

        IncrementalAlterConfigsRequestData.AlterableConfigCollection configs =
                forwarded.resources().iterator().next().configs();
        assertEquals(ops.size(), configs.size());
        for (IncrementalAlterConfigsRequestData.AlterableConfig c : configs) {
            String name = c.name().substring("key.".length());
            assertEquals(AlterConfigOp.OpType.valueOf(name).id(), c.configOperation(), c.name());
        }
    }
}
