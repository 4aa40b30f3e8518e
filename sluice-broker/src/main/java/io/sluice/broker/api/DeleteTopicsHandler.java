package io.sluice.broker.api;

import io.sluice.broker.network.ApiHandler;
import io.sluice.broker.network.RequestContext;
import io.sluice.broker.topic.TopicException;
import io.sluice.broker.topic.TopicInfo;
import io.sluice.broker.topic.TopicManager;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.DeleteTopicsRequestData;
import org.apache.kafka.common.message.DeleteTopicsRequestData.DeleteTopicState;
import org.apache.kafka.common.message.DeleteTopicsResponseData;
import org.apache.kafka.common.message.DeleteTopicsResponseData.DeletableTopicResult;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.resource.ResourceType;

/**
 * DeleteTopics: by name (v0-5) or by name or id (v6+).
 *
 * <p>Thread-safe (stateless past construction).
 */
public final class DeleteTopicsHandler implements ApiHandler<DeleteTopicsRequestData> {
    private static final short FIRST_VERSION_WITH_TOPIC_IDS = 6;
    private final TopicManager topics;

    public DeleteTopicsHandler(TopicManager topics) {
        this.topics = topics;
    }

    @Override
    public CompletableFuture<ApiMessage> handle(RequestContext context, DeleteTopicsRequestData request) {
        DeleteTopicsResponseData response = new DeleteTopicsResponseData();
        if (context.apiVersion() >= FIRST_VERSION_WITH_TOPIC_IDS) {
            for (DeleteTopicState state : request.topics()) {
                response.responses().add(deleteOne(context, state.name(), state.topicId()));
            }
        } else {
            for (String name : request.topicNames()) {
                response.responses().add(deleteOne(context, name, Uuid.ZERO_UUID));
            }
        }
        return CompletableFuture.completedFuture(response);
    }

    private DeletableTopicResult deleteOne(RequestContext context, String name, Uuid id) {
        DeletableTopicResult result =
                new DeletableTopicResult().setName(name).setTopicId(id == null ? Uuid.ZERO_UUID : id);
        String target = name;
        if (target == null) {
            TopicInfo topic = id == null ? null : topics.topic(id);
            if (topic == null) {
                return result.setErrorCode(Errors.UNKNOWN_TOPIC_ID.code())
                        .setErrorMessage("Topic id " + id + " does not exist.");
            }
            target = topic.name();
            result.setName(target);
        } else {
            TopicInfo topic = topics.topic(target);
            if (topic != null) {
                result.setTopicId(topic.id());
            }
        }
        if (!context.authorize(AclOperation.DELETE, ResourceType.TOPIC, target)) {
            // as Kafka: a topic id the principal may not delete does not reveal its name
            return (name == null ? result.setName(null) : result)
                    .setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code())
                    .setErrorMessage("Authorization failed.");
        }
        try {
            topics.delete(target);
            return result.setErrorCode(Errors.NONE.code());
        } catch (TopicException e) {
            return result.setErrorCode(e.error().code()).setErrorMessage(e.getMessage());
        }
    }
}
