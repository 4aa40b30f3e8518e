package io.sluice.broker.http;

import com.fasterxml.jackson.core.JsonGenerator;
import io.sluice.broker.group.GroupLag;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The status page's JSON endpoints under {@code /api/}, each usable on its own (docs/status-page.md):
 * {@code cluster}, {@code topics} (the cluster state, the same on every broker), and the per-broker
 * {@code groups} (consumer lag of the groups this broker coordinates), {@code moves} (reassignments, with the
 * transfers this broker receives) and {@code throughput} (this broker's bytes in/out over the last minutes), which
 * take {@code ?scope=cluster} to gather every live broker's answer ({@link PeerFanOut}).
 *
 * <p>Thread-safe: each answer reads thread-safe sources afresh.
 */
final class StatusApi {
    static final String PREFIX = "/api/";
    static final String SCOPE = "scope";

    /** A request this API cannot answer; the message says why (sent as a 400). */
    static final class BadRequest extends Exception {
        BadRequest(String message) {
            super(message);
        }
    }

    private final ClusterJson cluster;
    private final Supplier<List<GroupLag>> groups;
    private final ThroughputHistory throughput;
    private final PeerFanOut peers;

    StatusApi(ClusterJson cluster, Supplier<List<GroupLag>> groups, ThroughputHistory throughput, PeerFanOut peers) {
        this.cluster = cluster;
        this.groups = groups;
        this.throughput = throughput;
        this.peers = peers;
    }

    /** Whether {@code path} is one of this API's endpoints. */
    boolean serves(String path) {
        return writerFor(path) != null;
    }

    /**
     * The JSON answer to a GET of {@code path} ({@link #serves} it) with query {@code parameters}.
     *
     * @throws BadRequest for a scope other than local or cluster, or cluster on an endpoint without one
     */
    CompletableFuture<byte[]> answer(String path, Map<String, List<String>> parameters) throws BadRequest {
        return answer(path, parameters, null);
    }

    /** As {@link #answer(String, Map)}; {@code authorization} (may be null) is passed on to peers asked for theirs. */
    CompletableFuture<byte[]> answer(String path, Map<String, List<String>> parameters, String authorization)
            throws BadRequest {
        JsonBody.Writer writer = writerFor(path);
        List<String> scopes = parameters.getOrDefault(SCOPE, List.of("local"));
        String scope = scopes.size() == 1 ? scopes.get(0) : "";
        boolean perBroker = isPerBroker(path);
        if (scope.equals("cluster") && perBroker) {
            return peers.gather(path, writer, authorization);
        }
        if (!scope.equals("local") && !(scope.equals("cluster") && !perBroker)) {
            throw new BadRequest("scope must be given once, as local or cluster; got " + scopes);
        }
        try {
            return CompletableFuture.completedFuture(JsonBody.of(writer));
        } catch (IOException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private static boolean isPerBroker(String path) {
        return switch (path) {
            case PREFIX + "groups", PREFIX + "moves", PREFIX + "throughput" -> true;
            default -> false;
        };
    }

    private JsonBody.Writer writerFor(String path) {
        return switch (path) {
            case PREFIX + "cluster" -> cluster::writeCluster;
            case PREFIX + "topics" -> cluster::writeTopics;
            case PREFIX + "moves" -> cluster::writeMoves;
            case PREFIX + "groups" -> this::writeGroups;
            case PREFIX + "throughput" -> this::writeThroughput;
            default -> null;
        };
    }

    private void writeThroughput(JsonGenerator json) throws IOException {
        throughput.write(json);
    }

    private void writeGroups(JsonGenerator json) throws IOException {
        json.writeStartObject();
        json.writeArrayFieldStart("groups");
        for (GroupLag group : groups.get()) {
            json.writeStartObject();
            json.writeStringField("group", group.groupId());
            json.writeStringField("state", group.state());
            json.writeNumberField("members", group.members());
            json.writeNumberField("totalLag", group.totalLag());
            json.writeArrayFieldStart("partitions");
            for (GroupLag.PartitionLag p : group.partitions()) {
                json.writeStartObject();
                json.writeStringField("topic", p.topic());
                json.writeNumberField("partition", p.partition());
                json.writeNumberField("committedOffset", p.committedOffset());
                if (p.isKnown()) {
                    json.writeNumberField("logEndOffset", p.logEndOffset());
                    json.writeNumberField("lag", p.lag());
                } else {
                    json.writeNullField("logEndOffset");
                    json.writeNullField("lag");
                }
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeEndObject();
        }
        json.writeEndArray();
        json.writeEndObject();
    }
}
