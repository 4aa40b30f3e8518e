package io.sluice.broker.group;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.SyncGroupResponseData;
import org.apache.kafka.common.protocol.Errors;

/**
 * Builds JoinGroup and SyncGroup responses so that every field is valid for the version the client speaks
 * (for example a non-null protocol name before JoinGroup v7). Stateless; thread-safe.
 */
final class GroupResponses {
    /** First JoinGroup version with a nullable protocol name. */
    private static final short JOIN_NULLABLE_PROTOCOL_NAME_VERSION = 7;
    /** First JoinGroup version carrying group instance ids of members. */
    private static final short JOIN_INSTANCE_ID_VERSION = 5;
    /** First SyncGroup version carrying protocol type and name. */
    private static final short SYNC_PROTOCOL_VERSION = 5;

    private GroupResponses() {}

    static JoinGroupResponseData joinError(String memberId, Errors error, short version) {
        return normalize(
                new JoinGroupResponseData()
                        .setErrorCode(error.code())
                        .setGenerationId(-1)
                        .setProtocolName(null)
                        .setLeader("")
                        .setMemberId(memberId == null ? "" : memberId),
                version);
    }

    /** A successful join result for {@code member}; the leader also gets every member's metadata. */
    static JoinGroupResponseData joinResult(
            ClassicGroup group, String memberId, String leaderId, boolean withMembers, short version) {
        List<JoinGroupResponseData.JoinGroupResponseMember> members = new ArrayList<>();
        if (withMembers) {
            for (GroupMember m : group.members.values()) {
                members.add(new JoinGroupResponseData.JoinGroupResponseMember()
                        .setMemberId(m.memberId)
                        .setGroupInstanceId(version >= JOIN_INSTANCE_ID_VERSION ? m.groupInstanceId : null)
                        .setMetadata(m.metadataFor(group.protocolName)));
            }
        }
        return normalize(
                new JoinGroupResponseData()
                        .setErrorCode(Errors.NONE.code())
                        .setGenerationId(group.generationId)
                        .setProtocolType(group.protocolType)
                        .setProtocolName(group.protocolName)
                        .setLeader(leaderId == null ? "" : leaderId)
                        .setMemberId(memberId)
                        .setMembers(members),
                version);
    }

    private static JoinGroupResponseData normalize(JoinGroupResponseData response, short version) {
        if (version < JOIN_NULLABLE_PROTOCOL_NAME_VERSION && response.protocolName() == null) {
            response.setProtocolName("");
        }
        return response;
    }

    static SyncGroupResponseData syncError(Errors error) {
        return new SyncGroupResponseData().setErrorCode(error.code()).setAssignment(new byte[0]);
    }

    static SyncGroupResponseData syncResult(ClassicGroup group, byte[] assignment, short version) {
        SyncGroupResponseData response =
                new SyncGroupResponseData().setErrorCode(Errors.NONE.code()).setAssignment(assignment);
        if (version >= SYNC_PROTOCOL_VERSION) {
            response.setProtocolType(group.protocolType).setProtocolName(group.protocolName);
        }
        return response;
    }
}
