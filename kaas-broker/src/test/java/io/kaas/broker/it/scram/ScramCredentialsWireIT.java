package io.kaas.broker.it.scram;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.broker.it.TestBroker;
import io.kaas.broker.network.RawClient;
import io.kaas.wire.message.AlterUserScramCredentialsRequestData;
import io.kaas.wire.message.AlterUserScramCredentialsRequestData.ScramCredentialDeletion;
import io.kaas.wire.message.AlterUserScramCredentialsRequestData.ScramCredentialUpsertion;
import io.kaas.wire.message.AlterUserScramCredentialsResponseData;
import io.kaas.wire.message.AlterUserScramCredentialsResponseData.AlterUserScramCredentialsResult;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.DescribeClientQuotasRequestData;
import io.kaas.wire.message.DescribeClientQuotasResponseData;
import io.kaas.wire.message.DescribeUserScramCredentialsRequestData;
import io.kaas.wire.message.DescribeUserScramCredentialsResponseData;
import io.kaas.wire.protocol.ApiMessage;
import io.kaas.wire.protocol.Errors;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Requests the Java client never sends, straight on the wire: Kafka's codes and messages for each bad field. */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ScramCredentialsWireIT {
    @TempDir
    Path dir;

    private static <T extends ApiMessage> T roundTrip(RawClient c, ApiMessageType api, ApiMessage request, int id)
            throws Exception {
        c.send(api, (short) 0, id, request);
        RawClient.Response<T> r = c.read(api, (short) 0);
        assertThat(r.correlationId()).isEqualTo(id);
        return r.body();
    }

    private static ScramCredentialUpsertion upsert(String user, int mechanism, int iterations, byte[] salt, byte[] salted) {
        return new ScramCredentialUpsertion().setName(user).setMechanism((byte) mechanism).setIterations(iterations)
                .setSalt(salt).setSaltedPassword(salted);
    }

    private static Map<String, String> byUser(AlterUserScramCredentialsResponseData response) {
        return response.results().stream().collect(Collectors.toMap(AlterUserScramCredentialsResult::user,
                r -> r.errorCode() + " " + r.errorMessage()));
    }

    @Test
    void badUpsertionsAndDeletionsAreRefusedPerUser() throws Exception {
        byte[] salt = new byte[32];
        byte[] salted = new byte[32];
        salted[0] = 1;
        try (TestBroker broker = TestBroker.builder(dir).start(); RawClient c = new RawClient(broker.port())) {
            AlterUserScramCredentialsResponseData response = roundTrip(c, ApiMessageType.ALTER_USER_SCRAM_CREDENTIALS,
                    new AlterUserScramCredentialsRequestData()
                            .setDeletions(new ArrayList<>(List.of(
                                    new ScramCredentialDeletion().setName("del-unknown-mech").setMechanism((byte) 0),
                                    new ScramCredentialDeletion().setName("").setMechanism((byte) 1))))
                            .setUpsertions(new ArrayList<>(List.of(
                                    upsert("good", 1, 4096, salt, salted),
                                    upsert("mech-0", 0, 4096, salt, salted),
                                    upsert("mech-7", 7, 4096, salt, salted),
                                    upsert("no-salt", 2, 4096, new byte[0], salted),
                                    upsert("no-salted-password", 2, 4096, salt, new byte[0]),
                                    upsert("negative", 2, -1, salt, salted)))), 1);
            assertThat(byUser(response)).isEqualTo(Map.of(
                    "good", Errors.NONE + " null",
                    "del-unknown-mech", Errors.UNSUPPORTED_SASL_MECHANISM + " Unknown SCRAM mechanism",
                    "", Errors.UNACCEPTABLE_CREDENTIAL + " Username must not be empty",
                    "mech-0", Errors.UNSUPPORTED_SASL_MECHANISM + " Unknown SCRAM mechanism",
                    "mech-7", Errors.UNSUPPORTED_SASL_MECHANISM + " Unknown SCRAM mechanism",
                    "no-salt", Errors.UNACCEPTABLE_CREDENTIAL + " Salt must not be empty",
                    "no-salted-password", Errors.UNACCEPTABLE_CREDENTIAL + " Salted password must not be empty",
                    "negative", Errors.UNACCEPTABLE_CREDENTIAL + " Too few iterations"));
            assertThat(broker.broker.clusterStore().scramCredentials()).extracting(r -> r.user()).containsExactly("good");

            // A user named in a deletion and an upsertion is refused whole, as Kafka's controller does.
            AlterUserScramCredentialsResponseData both = roundTrip(c, ApiMessageType.ALTER_USER_SCRAM_CREDENTIALS,
                    new AlterUserScramCredentialsRequestData()
                            .setDeletions(new ArrayList<>(List.of(new ScramCredentialDeletion().setName("good").setMechanism((byte) 1))))
                            .setUpsertions(new ArrayList<>(List.of(upsert("good", 2, 4096, salt, salted)))), 2);
            assertThat(byUser(both)).isEqualTo(Map.of("good", Errors.DUPLICATE_RESOURCE
                    + " A user credential cannot be altered twice in the same request"));
            assertThat(broker.broker.clusterStore().scramCredentials("good")).extracting(r -> r.mechanism())
                    .containsExactly("SCRAM-SHA-256");

            AlterUserScramCredentialsResponseData empty = roundTrip(c, ApiMessageType.ALTER_USER_SCRAM_CREDENTIALS,
                    new AlterUserScramCredentialsRequestData(), 3);
            assertThat(empty.results()).isEmpty();
        }
    }

    @Test
    void describeWithNullUsersListsEveryoneAndKnowsNoSaltsOrKeys() throws Exception {
        byte[] salt = new byte[32];
        byte[] salted = new byte[64];
        salted[0] = 1;
        try (TestBroker broker = TestBroker.builder(dir).start(); RawClient c = new RawClient(broker.port())) {
            roundTrip(c, ApiMessageType.ALTER_USER_SCRAM_CREDENTIALS, new AlterUserScramCredentialsRequestData()
                    .setUpsertions(new ArrayList<>(List.of(upsert("a", 2, 16384, salt, salted), upsert("b", 1, 5000, salt, salted)))), 1);
            DescribeUserScramCredentialsResponseData all = roundTrip(c, ApiMessageType.DESCRIBE_USER_SCRAM_CREDENTIALS,
                    new DescribeUserScramCredentialsRequestData().setUsers(null), 2);
            assertThat(all.errorCode()).isEqualTo(Errors.NONE);
            assertThat(all.results()).extracting(r -> r.user() + " " + r.credentialInfos().get(0).mechanism() + " "
                    + r.credentialInfos().get(0).iterations()).containsExactlyInAnyOrder("a 2 16384", "b 1 5000");
        }
    }

    @Test
    void describeClientQuotasAnswersNoQuotasAndRefusesBadFiltersWithKafkasMessages() throws Exception {
        try (TestBroker broker = TestBroker.builder(dir).start(); RawClient c = new RawClient(broker.port())) {
            DescribeClientQuotasResponseData ok = roundTrip(c, ApiMessageType.DESCRIBE_CLIENT_QUOTAS,
                    new DescribeClientQuotasRequestData().setComponents(new ArrayList<>(List.of(
                            new DescribeClientQuotasRequestData.ComponentData().setEntityType("user").setMatchType((byte) 0)
                                    .setMatch("alice")))), 1);
            assertThat(ok.errorCode()).isEqualTo(Errors.NONE);
            assertThat(ok.entries()).isEmpty();
            int id = 2;
            Map<List<DescribeClientQuotasRequestData.ComponentData>, String> refused = new java.util.LinkedHashMap<>();
            refused.put(List.of(component("", 2, null)), Errors.INVALID_REQUEST + " Invalid empty entity type.");
            refused.put(List.of(component("user", 2, null), component("user", 1, null)),
                    Errors.INVALID_REQUEST + " Entity type user cannot appear more than once in the filter.");
            refused.put(List.of(component("topic", 2, null)), Errors.UNSUPPORTED_VERSION + " Unsupported entity type topic");
            refused.put(List.of(component("user", 0, null)),
                    Errors.INVALID_REQUEST + " Request specified MATCH_TYPE_EXACT, but set match string to null.");
            refused.put(List.of(component("user", 1, "x")),
                    Errors.INVALID_REQUEST + " Request specified MATCH_TYPE_DEFAULT, but also specified a match string.");
            refused.put(List.of(component("user", 5, null)), Errors.INVALID_REQUEST + " Unknown match type 5");
            refused.put(List.of(component("ip", 2, null), component("client-id", 2, null)), Errors.INVALID_REQUEST
                    + " Invalid entity filter component combination. IP filter component should not be used with user or"
                    + " clientId filter component.");
            for (var bad : refused.entrySet()) {
                DescribeClientQuotasResponseData r = roundTrip(c, ApiMessageType.DESCRIBE_CLIENT_QUOTAS,
                        new DescribeClientQuotasRequestData().setComponents(new ArrayList<>(bad.getKey())), id++);
                assertThat(r.errorCode() + " " + r.errorMessage()).isEqualTo(bad.getValue());
                assertThat(r.entries()).isNull();
            }
        }
    }

    private static DescribeClientQuotasRequestData.ComponentData component(String type, int match, String name) {
        return new DescribeClientQuotasRequestData.ComponentData().setEntityType(type).setMatchType((byte) match).setMatch(name);
    }
}
