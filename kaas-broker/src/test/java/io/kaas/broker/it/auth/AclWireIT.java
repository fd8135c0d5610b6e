package io.kaas.broker.it.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.broker.it.TestBroker;
import io.kaas.broker.network.RawClient;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.CreateAclsRequestData;
import io.kaas.wire.message.CreateAclsRequestData.AclCreation;
import io.kaas.wire.message.CreateAclsResponseData;
import io.kaas.wire.message.CreateAclsResponseData.AclCreationResult;
import io.kaas.wire.message.DeleteAclsRequestData;
import io.kaas.wire.message.DeleteAclsRequestData.DeleteAclsFilter;
import io.kaas.wire.message.DeleteAclsResponseData;
import io.kaas.wire.message.DescribeAclsRequestData;
import io.kaas.wire.message.DescribeAclsResponseData;
import io.kaas.wire.protocol.ApiMessage;
import io.kaas.wire.protocol.Errors;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ACL APIs over the wire with what a well-behaved client never sends: codes Kafka reads as UNKNOWN, the
 * filter-only pattern types ANY and MATCH in an ACL to create, v0 (removed in Kafka 4.0). Codes as Kafka's
 * enums: resource TOPIC 2, CLUSTER 4; pattern ANY 1, MATCH 2, LITERAL 3, PREFIXED 4; operation ANY 1, READ 3;
 * permission ANY 1, ALLOW 3.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class AclWireIT {
    @TempDir
    Path dir;

    private TestBroker start() throws IOException {
        return TestBroker.builder(dir).pluginsDir(dir.resolve("no-plugins")).acl("allow * ALTER cluster\n").start();
    }

    private static AclCreation creation(int type, String name, int pattern, String principal, int op, int permission) {
        return new AclCreation().setResourceType((byte) type).setResourceName(name).setResourcePatternType((byte) pattern)
                .setPrincipal(principal).setHost("*").setOperation((byte) op).setPermissionType((byte) permission);
    }

    @SuppressWarnings("unchecked")
    private static <T extends ApiMessage> T call(RawClient raw, ApiMessageType api, int version, ApiMessage body)
            throws IOException {
        raw.send(api, (short) version, 7, body);
        return (T) raw.read(api, (short) version).body();
    }

    @Test
    void eachBadCreationIsInvalidRequestWithKafkasMessageAndTheGoodOnesAreStored() throws Exception {
        try (TestBroker broker = start(); RawClient raw = new RawClient(broker.port())) {
            CreateAclsResponseData response = call(raw, ApiMessageType.CREATE_ACLS, 3, new CreateAclsRequestData()
                    .setCreations(List.of(
                            creation(2, "t", 3, "User:a", 3, 3),
                            creation(2, "t", 2, "User:a", 3, 3),
                            creation(2, "t", 1, "User:a", 3, 3),
                            creation(0, "t", 3, "User:a", 3, 3),
                            creation(1, "t", 3, "User:a", 3, 3),
                            creation(2, "t", 3, "User:a", 1, 3),
                            creation(2, "t", 3, "User:a", 3, 1),
                            creation(2, "t", 3, "User:a", 99, 3),
                            creation(4, "other-cluster", 3, "User:a", 7, 3),
                            creation(2, "t", 3, "User:", 3, 3),
                            creation(2, "t-", 4, "User:a", 3, 3))));
            // a stored ACL's message is Kafka's: the empty string, as kafkajs's own suite expects of Kafka 4.4
            assertThat(response.results()).extracting(AclCreationResult::errorMessage).containsExactly("",
                    "Invalid patternType MATCH", "Invalid patternType ANY", "Invalid resourceType UNKNOWN",
                    "Invalid resourceType ANY", "Invalid operation ANY", "Invalid permissionType ANY",
                    "Invalid operation UNKNOWN", "The only valid name for the CLUSTER resource is kafka-cluster",
                    "Could not parse principal from `User:` (the principal type and name must not be empty)", "");
            assertThat(response.results()).extracting(AclCreationResult::errorCode).containsExactly(Errors.NONE,
                    Errors.INVALID_REQUEST, Errors.INVALID_REQUEST, Errors.INVALID_REQUEST, Errors.INVALID_REQUEST,
                    Errors.INVALID_REQUEST, Errors.INVALID_REQUEST, Errors.INVALID_REQUEST, Errors.INVALID_REQUEST,
                    Errors.INVALID_REQUEST, Errors.NONE);

            DescribeAclsResponseData topics = call(raw, ApiMessageType.DESCRIBE_ACLS, 3, new DescribeAclsRequestData()
                    .setResourceNameFilter(null).setPrincipalFilter(null).setHostFilter(null)
                    .setResourceTypeFilter((byte) 2).setPatternTypeFilter((byte) 1).setOperation((byte) 1)
                    .setPermissionType((byte) 1));
            assertThat(topics.errorCode()).isEqualTo(Errors.NONE);
            assertThat(topics.errorMessage()).as("Kafka's message on success").isEmpty();
            assertThat(topics.resources()).extracting(DescribeAclsResponseData.DescribeAclsResource::resourceName)
                    .containsExactly("t", "t-");
        }
    }

    @Test
    void unknownFilterCodesAreInvalidRequestOrMatchNothingAsInKafka() throws Exception {
        try (TestBroker broker = start(); RawClient raw = new RawClient(broker.port())) {
            DescribeAclsResponseData unknown = call(raw, ApiMessageType.DESCRIBE_ACLS, 2, new DescribeAclsRequestData()
                    .setResourceTypeFilter((byte) 0).setPatternTypeFilter((byte) 1).setOperation((byte) 1)
                    .setPermissionType((byte) 1));
            assertThat(unknown.errorCode()).isEqualTo(Errors.INVALID_REQUEST);
            assertThat(unknown.errorMessage()).isEqualTo("DescribeAclsRequest contains UNKNOWN elements");

            DescribeAclsResponseData undefined = call(raw, ApiMessageType.DESCRIBE_ACLS, 1, new DescribeAclsRequestData()
                    .setResourceTypeFilter((byte) 42).setPatternTypeFilter((byte) 1).setOperation((byte) 1)
                    .setPermissionType((byte) 1));
            assertThat(undefined.errorCode()).isEqualTo(Errors.NONE);
            assertThat(undefined.errorMessage()).isEmpty();
            assertThat(undefined.resources()).isEmpty();

            DeleteAclsResponseData deleted = call(raw, ApiMessageType.DELETE_ACLS, 3, new DeleteAclsRequestData()
                    .setFilters(List.of(
                            new DeleteAclsFilter().setResourceTypeFilter((byte) 2).setPatternTypeFilter((byte) 9)
                                    .setOperation((byte) 1).setPermissionType((byte) 1),
                            new DeleteAclsFilter().setResourceTypeFilter((byte) 2).setPatternTypeFilter((byte) 1)
                                    .setOperation((byte) 0).setPermissionType((byte) 1),
                            new DeleteAclsFilter().setResourceTypeFilter((byte) 2).setPatternTypeFilter((byte) 1)
                                    .setResourceNameFilter("nothing").setOperation((byte) 1).setPermissionType((byte) 1))));
            assertThat(deleted.filterResults()).extracting(DeleteAclsResponseData.DeleteAclsFilterResult::errorMessage)
                    .containsExactly("Unknown patternFilter.", "Unknown entryFilter.", null);
            assertThat(deleted.filterResults()).extracting(DeleteAclsResponseData.DeleteAclsFilterResult::errorCode)
                    .containsExactly(Errors.INVALID_REQUEST, Errors.INVALID_REQUEST, Errors.NONE);
            assertThat(deleted.filterResults().get(2).matchingAcls()).isEmpty();
        }
    }

    @Test
    void version0RemovedInKafka4ClosesTheConnection() throws Exception {
        try (TestBroker broker = start(); RawClient raw = new RawClient(broker.port())) {
            raw.send(ApiMessageType.DESCRIBE_ACLS, (short) 0, 1, new DescribeAclsRequestData()
                    .setResourceTypeFilter((byte) 1).setOperation((byte) 1).setPermissionType((byte) 1));
            assertThat(raw.closedByServer()).isTrue();
        }
    }
}
