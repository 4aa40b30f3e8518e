package io.sluice.broker.api;

import io.sluice.broker.config.ConfigEntry;
import io.sluice.broker.config.DynamicBrokerConfig;
import io.sluice.broker.config.TopicConfigs;
import io.sluice.broker.network.ApiHandler;
import io.sluice.broker.network.RequestContext;
import io.sluice.broker.topic.TopicInfo;
import io.sluice.broker.topic.TopicManager;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.message.DescribeConfigsRequestData;
import org.apache.kafka.common.message.DescribeConfigsRequestData.DescribeConfigsResource;
import org.apache.kafka.common.message.DescribeConfigsResponseData;
import org.apache.kafka.common.message.DescribeConfigsResponseData.DescribeConfigsResourceResult;
import org.apache.kafka.common.message.DescribeConfigsResponseData.DescribeConfigsResult;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;

/**
 * DescribeConfigs for topics, this broker and the cluster default (the empty broker name): every key with its
 * effective value and where it came from (a topic override, this broker's or the cluster's dynamic value,
 * server.properties, the default), optionally filtered by key, with synonyms (v1+) and documentation (v3+) on request.
 *
 * <p>Thread-safe (stateless past construction).
 */
public final class DescribeConfigsHandler implements ApiHandler<DescribeConfigsRequestData> {
    private static final short FIRST_VERSION_WITH_TYPES = 3;
    private final DynamicBrokerConfig config;
    private final TopicManager topics;

    public DescribeConfigsHandler(DynamicBrokerConfig config, TopicManager topics) {
        this.config = config;
        this.topics = topics;
    }

    @Override
    public CompletableFuture<ApiMessage> handle(RequestContext context, DescribeConfigsRequestData request) {
        DescribeConfigsResponseData response = new DescribeConfigsResponseData();
        for (DescribeConfigsResource resource : request.resources()) {
            Errors denied = ConfigAlterations.accessError(
                    context,
                    resource.resourceType() == ConfigResource.Type.TOPIC.id(),
                    resource.resourceName(),
                    AclOperation.DESCRIBE_CONFIGS);
            response.results()
                    .add(
                            denied != null
                                    ? new DescribeConfigsResult()
                                            .setResourceType(resource.resourceType())
                                            .setResourceName(resource.resourceName())
                                            .setErrorCode(denied.code())
                                            .setErrorMessage(denied.message())
                                    : describe(
                                            resource,
                                            request.includeSynonyms(),
                                            request.includeDocumentation(),
                                            context.apiVersion()));
        }
        return CompletableFuture.completedFuture(response);
    }

    private DescribeConfigsResult describe(
            DescribeConfigsResource resource, boolean synonyms, boolean documentation, short version) {
        DescribeConfigsResult result = new DescribeConfigsResult()
                .setResourceType(resource.resourceType())
                .setResourceName(resource.resourceName());
        ConfigResource.Type type = ConfigResource.Type.forId(resource.resourceType());
        List<ConfigEntry> entries;
        if (type == ConfigResource.Type.TOPIC) {
            TopicInfo topic = topics.topic(resource.resourceName());
            if (topic == null) {
                return result.setErrorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION.code())
                        .setErrorMessage("Topic '" + resource.resourceName() + "' does not exist.");
            }
            entries = topics.effectiveConfigPreview(topic).describe();
        } else if (type == ConfigResource.Type.BROKER) {
            String name = resource.resourceName();
            if (!name.isEmpty() && !name.equals(Integer.toString(config.brokerId()))) {
                return result.setErrorCode(Errors.INVALID_REQUEST.code())
                        .setErrorMessage("Unexpected broker id, expected " + config.brokerId()
                                + " or empty string, but received " + name);
            }
            entries = TopicConfigs.describeBroker(config.live(), !name.isEmpty());
        } else {
            return result.setErrorCode(Errors.INVALID_REQUEST.code())
                    .setErrorMessage("Unsupported resource type " + resource.resourceType()
                            + "; only topics (2) and brokers (4) are described");
        }
        result.setErrorCode(Errors.NONE.code());
        for (ConfigEntry entry : entries) {
            if (resource.configurationKeys() != null
                    && !resource.configurationKeys().contains(entry.name())) {
                continue;
            }
            DescribeConfigsResourceResult row = new DescribeConfigsResourceResult()
                    .setName(entry.name())
                    .setValue(entry.sensitive() ? null : entry.value())
                    .setReadOnly(entry.readOnly())
                    .setIsSensitive(entry.sensitive());
            if (version == 0) {
                row.setIsDefault(entry.isDefault());
            } else {
                row.setConfigSource(entry.source().describeConfigsId());
            }
            if (version >= 1 && synonyms) {
                for (ConfigEntry.Synonym synonym : entry.synonyms()) {
                    row.synonyms()
                            .add(new DescribeConfigsResponseData.DescribeConfigsSynonym()
                                    .setName(synonym.name())
                                    .setValue(entry.sensitive() ? null : synonym.value())
                                    .setSource(synonym.source().describeConfigsId()));
                }
            }
            if (version >= FIRST_VERSION_WITH_TYPES) {
                row.setConfigType(entry.type().describeConfigsId())
                        .setDocumentation(documentation ? entry.documentation() : null);
            }
            result.configs().add(row);
        }
        return result;
    }
}
