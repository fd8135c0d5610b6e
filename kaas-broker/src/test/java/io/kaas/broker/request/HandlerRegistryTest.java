package io.kaas.broker.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.api.auth.Action;
import io.kaas.api.auth.Operation;
import io.kaas.api.auth.ResourceType;
import io.kaas.broker.auth.AccessGate;
import io.kaas.broker.auth.Check;
import io.kaas.broker.auth.TestGates;
import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.ApiVersionsRequestData;
import io.kaas.wire.message.ApiVersionsResponseData;
import io.kaas.wire.message.JoinGroupRequestData;
import io.kaas.wire.message.JoinGroupResponseData;
import io.kaas.wire.protocol.ApiMessage;
import io.kaas.wire.protocol.Errors;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class HandlerRegistryTest {

    /** Answers an empty response of its API. */
    record Fake(ApiMessageType api) implements ApiHandler<ApiMessage, ApiMessage> {
        @Override
        public CompletableFuture<ApiMessage> handle(RequestContext context, ApiMessage request) {
            return CompletableFuture.completedFuture(api.newResponse());
        }
    }

    static ServedApi<ApiMessage, ApiMessage> fake(ApiMessageType api, int min, int max) {
        return ServedApi.of(ApiSpec.of(api, min, max), new Fake(api));
    }

    static ServedApi<ApiMessage, ApiMessage> fakeProduce(int min, int max) {
        return ServedApi.of(ApiSpec.<ApiMessage, ApiMessage>of(ApiMessageType.PRODUCE, min, max).advertisedFrom(0),
            new Fake(ApiMessageType.PRODUCE));
    }

    @Test
    void tableHasOneRowPerHandlerPlusApiVersionsSortedByKey() {
        HandlerRegistry r = HandlerRegistry.of(List.of(fake(ApiMessageType.METADATA, 0, 12), fakeProduce(3, 12)));
        assertThat(r.table()).containsExactly(
            new HandlerRegistry.ApiRange((short) 0, (short) 0, (short) 12),
            new HandlerRegistry.ApiRange((short) 3, (short) 0, (short) 12),
            new HandlerRegistry.ApiRange((short) 18, (short) 0, (short) 5));
        assertThat(r.handler(ApiMessageType.API_VERSIONS)).isSameAs(r.apiVersions());
        assertThat(r.handler(ApiMessageType.FETCH)).isNull();
        assertThat(r.spec(ApiMessageType.FETCH)).isNull();
    }

    @Test
    void produceIsAdvertisedFromZeroButServedFromItsContractsMinimum() {
        HandlerRegistry r = HandlerRegistry.of(List.of(fakeProduce(3, 12)));
        assertThat(r.serves(ApiMessageType.PRODUCE, (short) 2)).isFalse();
        assertThat(r.serves(ApiMessageType.PRODUCE, (short) 3)).isTrue();
        assertThat(r.serves(ApiMessageType.PRODUCE, (short) 13)).isFalse();
    }

    @Test
    void theProduceContractIsAdvertisedFromZeroAndServedFromThree() {
        assertThat(ApiContracts.PRODUCE.advertisedMinVersion()).isZero();
        assertThat(ApiContracts.PRODUCE.minVersion()).isEqualTo((short) 3);
        HandlerRegistry r = HandlerRegistry.of(List.of(ServedApi.of(ApiContracts.PRODUCE,
            (c, q) -> CompletableFuture.completedFuture(null))));
        assertThat(r.table()).contains(new HandlerRegistry.ApiRange((short) 0, (short) 0, (short) 13));
        assertThat(r.serves(ApiMessageType.PRODUCE, (short) 2)).isFalse();
    }

    @Test
    void noContractOtherThanProduceAdvertisesAVersionItDoesNotServe() {
        assertThat(ApiContracts.JOIN_GROUP.advertisedMinVersion()).isEqualTo(ApiContracts.JOIN_GROUP.minVersion());
        assertThatThrownBy(() -> ApiSpec.of(ApiMessageType.METADATA, 2, 12).advertisedFrom(3))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("above the lowest version served");
    }

    @Test
    void rejectsTwoHandlersForOneApi() {
        assertThatThrownBy(() -> HandlerRegistry.of(List.of(fake(ApiMessageType.METADATA, 0, 12),
            fake(ApiMessageType.METADATA, 0, 11))))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Two handlers for Metadata");
    }

    @Test
    void rejectsAHandlerForApiVersions() {
        assertThatThrownBy(() -> HandlerRegistry.of(List.of(fake(ApiMessageType.API_VERSIONS, 0, 4))))
            .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rejectsAMaxVersionAboveTheSchema() {
        short above = (short) (ApiMessageType.METADATA.highestSupportedVersion() + 1);
        assertThatThrownBy(() -> HandlerRegistry.of(List.of(fake(ApiMessageType.METADATA, 0, above))))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("above the schema");
    }

    @Test
    void rejectsTheUnstableLatestVersion() {
        ApiMessageType unstable = ApiMessageType.INIT_PRODUCER_ID; // v6 (KIP-939, 2PC) is unstable in Kafka 4.4
        assertThat(unstable.latestVersionUnstable()).isTrue();
        short latest = unstable.highestSupportedVersion();
        assertThatThrownBy(() -> HandlerRegistry.of(List.of(fake(unstable, unstable.lowestSupportedVersion(), latest))))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unstable");
        assertThat(HandlerRegistry.of(List.of(fake(unstable, unstable.lowestSupportedVersion(), latest - 1))).table())
            .hasSize(2);
    }

    @Test
    void rejectsAMinVersionBelowTheSchemaOrAboveTheMax() {
        assertThatThrownBy(() -> HandlerRegistry.of(List.of(fake(ApiMessageType.FETCH, 0, 12))))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("below");
        assertThatThrownBy(() -> HandlerRegistry.of(List.of(fake(ApiMessageType.FETCH, 12, 11))))
            .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void apiVersionsAnswersTheTableWithoutFeatures() {
        HandlerRegistry r = HandlerRegistry.of(List.of(fake(ApiMessageType.METADATA, 0, 12)));
        ApiVersionsResponseData resp = r.apiVersions().handle(context(3),
            new ApiVersionsRequestData().setClientSoftwareName("kaas-test").setClientSoftwareVersion("1.0.0")).join();
        assertThat(resp.errorCode()).isZero();
        assertThat(resp.throttleTimeMs()).isZero();
        assertThat(resp.apiKeys()).hasSize(2);
        assertThat(resp.supportedFeatures()).isEmpty();
        assertThat(resp.finalizedFeatures()).isEmpty();
    }

    @Test
    void apiVersionsAdvertisesTheFeaturesFromV3() {
        HandlerRegistry r = HandlerRegistry.of(AccessGate.ALLOW_ALL, List.of(fake(ApiMessageType.METADATA, 0, 12)),
            Features.of((short) 2, 42));
        ApiVersionsResponseData resp = r.apiVersions().handle(context(3),
            new ApiVersionsRequestData().setClientSoftwareName("kaas-test").setClientSoftwareVersion("1.0.0")).join();
        assertThat(resp.supportedFeatures()).extracting(f -> f.name() + " " + f.minVersion() + "-" + f.maxVersion())
            .containsExactly("group.version 0-1", "transaction.version 0-2");
        assertThat(resp.finalizedFeatures()).extracting(f -> f.name() + " " + f.minVersionLevel() + "-" + f.maxVersionLevel())
            .containsExactly("group.version 1-1", "transaction.version 2-2");
        assertThat(resp.finalizedFeaturesEpoch()).isEqualTo(42);
        assertThat(r.apiVersions().unsupportedVersionResponse().finalizedFeatures()).isEmpty();

        assertThatThrownBy(() -> Features.of((short) 3, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Features.of((short) 1, -1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void apiVersionsV3RejectsInvalidClientSoftware() {
        HandlerRegistry r = HandlerRegistry.of(List.of());
        ApiVersionsResponseData bad = r.apiVersions().handle(context(3),
            new ApiVersionsRequestData().setClientSoftwareName("bad name!").setClientSoftwareVersion("1.0")).join();
        assertThat(bad.errorCode()).isEqualTo((short) 42);
        ApiVersionsResponseData v2 = r.apiVersions().handle(context(2),
            new ApiVersionsRequestData()).join();
        assertThat(v2.errorCode()).isZero();
    }

    @Test
    void unsupportedVersionAnswerCarriesTheFullTable() {
        HandlerRegistry r = HandlerRegistry.of(List.of(fake(ApiMessageType.METADATA, 0, 12)));
        ApiVersionsResponseData resp = r.apiVersions().unsupportedVersionResponse();
        assertThat(resp.errorCode()).isEqualTo((short) 35);
        assertThat(resp.apiKeys()).hasSize(2);
    }

    @Test
    void aDeniedRequirementIsAnsweredByTheContractWithoutRunningTheHandler() {
        AtomicInteger ran = new AtomicInteger();
        HandlerRegistry r = HandlerRegistry.of(TestGates.allowing(a -> a.resourceName().equals("mine")),
            List.of(ServedApi.of(ApiContracts.JOIN_GROUP, (c, q) -> {
                ran.incrementAndGet();
                return CompletableFuture.completedFuture(new JoinGroupResponseData().setMemberId("m-1"));
            })));
        JoinGroupResponseData denied = (JoinGroupResponseData) r.handle(ApiMessageType.JOIN_GROUP, context(9),
            new JoinGroupRequestData().setGroupId("theirs")).join();
        assertThat(denied.errorCode()).isEqualTo(Errors.GROUP_AUTHORIZATION_FAILED);
        assertThat(denied.generationId()).isEqualTo(-1);
        assertThat(denied.protocolName()).isNull();
        assertThat(ran).hasValue(0);
        JoinGroupResponseData allowed = (JoinGroupResponseData) r.handle(ApiMessageType.JOIN_GROUP, context(9),
            new JoinGroupRequestData().setGroupId("mine")).join();
        assertThat(allowed.memberId()).isEqualTo("m-1");
        assertThat(ran).hasValue(1);
    }

    @Test
    void aHandlerCanAskOnlyTheChecksItsContractDeclares() {
        TestGates.Recording authorizer = TestGates.recording(a -> true);
        ApiSpec<ApiMessage, ApiMessage> spec = ApiSpec.<ApiMessage, ApiMessage>of(ApiMessageType.METADATA, 0, 12)
            .checks(Check.of(Operation.DESCRIBE, ResourceType.TOPIC));
        HandlerRegistry r = HandlerRegistry.of(TestGates.allowing(authorizer), List.of(ServedApi.of(spec, (c, q) -> {
            assertThat(c.access().allowedOnTopic(Operation.DESCRIBE, "t")).isTrue();
            c.access().allowedOnTopic(Operation.DELETE, "t");
            return CompletableFuture.completedFuture(ApiMessageType.METADATA.newResponse());
        })));
        assertThatThrownBy(() -> r.handle(ApiMessageType.METADATA, context(12), ApiMessageType.METADATA.newRequest()))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("Metadata asked whether it may DELETE a TOPIC but its contract does not declare that check");
        assertThat(authorizer.asked).containsExactly(Action.onTopic(Operation.DESCRIBE, "t"));
    }

    @Test
    void aContextThatDidNotComeThroughThePipelineHasNoAccess() {
        assertThatThrownBy(() -> context(3).access()).isInstanceOf(IllegalStateException.class);
    }

    private static RequestContext context(int version) {
        return new RequestContext((short) version, 1, "test", null, "PLAINTEXT");
    }
}
