package io.kaas.broker.handler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.wire.message.ApiMessageType;
import io.kaas.wire.message.ApiVersionsRequestData;
import io.kaas.wire.message.ApiVersionsResponseData;
import io.kaas.wire.protocol.ApiMessage;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class HandlerRegistryTest {

    record Fake(ApiMessageType api, short minVersion, short maxVersion) implements ApiHandler<ApiMessage, ApiMessage> {
        Fake(ApiMessageType api, int min, int max) {
            this(api, (short) min, (short) max);
        }

        @Override
        public CompletableFuture<ApiMessage> handle(RequestContext context, ApiMessage request) {
            return CompletableFuture.completedFuture(api.newResponse());
        }
    }

    @Test
    void tableHasOneRowPerHandlerPlusApiVersionsSortedByKey() {
        HandlerRegistry r = HandlerRegistry.of(List.of(new Fake(ApiMessageType.METADATA, 0, 12),
            new Fake(ApiMessageType.PRODUCE, 3, 12)));
        assertThat(r.table()).containsExactly(
            new HandlerRegistry.ApiRange((short) 0, (short) 0, (short) 12),
            new HandlerRegistry.ApiRange((short) 3, (short) 0, (short) 12),
            new HandlerRegistry.ApiRange((short) 18, (short) 0, (short) 4));
        assertThat(r.handler(ApiMessageType.API_VERSIONS)).isSameAs(r.apiVersions());
        assertThat(r.handler(ApiMessageType.FETCH)).isNull();
    }

    @Test
    void produceIsAdvertisedFromZeroButServedFromItsHandlersMinimum() {
        HandlerRegistry r = HandlerRegistry.of(List.of(new Fake(ApiMessageType.PRODUCE, 3, 12)));
        assertThat(r.serves(ApiMessageType.PRODUCE, (short) 2)).isFalse();
        assertThat(r.serves(ApiMessageType.PRODUCE, (short) 3)).isTrue();
        assertThat(r.serves(ApiMessageType.PRODUCE, (short) 13)).isFalse();
    }

    @Test
    void rejectsTwoHandlersForOneApi() {
        assertThatThrownBy(() -> HandlerRegistry.of(List.of(new Fake(ApiMessageType.METADATA, 0, 12),
            new Fake(ApiMessageType.METADATA, 0, 11))))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Two handlers for Metadata");
    }

    @Test
    void rejectsAHandlerForApiVersions() {
        assertThatThrownBy(() -> HandlerRegistry.of(List.of(new Fake(ApiMessageType.API_VERSIONS, 0, 4))))
            .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rejectsAMaxVersionAboveTheSchema() {
        short above = (short) (ApiMessageType.METADATA.highestSupportedVersion() + 1);
        assertThatThrownBy(() -> HandlerRegistry.of(List.of(new Fake(ApiMessageType.METADATA, 0, above))))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("above the schema");
    }

    @Test
    void rejectsTheUnstableLatestVersion() {
        ApiMessageType unstable = ApiMessageType.OFFSET_COMMIT;
        assertThat(unstable.latestVersionUnstable()).isTrue();
        short latest = unstable.highestSupportedVersion();
        assertThatThrownBy(() -> HandlerRegistry.of(List.of(new Fake(unstable, unstable.lowestSupportedVersion(), latest))))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unstable");
        assertThat(HandlerRegistry.of(List.of(new Fake(unstable, unstable.lowestSupportedVersion(), latest - 1))).table())
            .hasSize(2);
    }

    @Test
    void rejectsAMinVersionBelowTheSchemaOrAboveTheMax() {
        assertThatThrownBy(() -> HandlerRegistry.of(List.of(new Fake(ApiMessageType.FETCH, 0, 12))))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("below");
        assertThatThrownBy(() -> HandlerRegistry.of(List.of(new Fake(ApiMessageType.FETCH, 12, 11))))
            .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void apiVersionsAnswersTheTableWithoutFeatures() {
        HandlerRegistry r = HandlerRegistry.of(List.of(new Fake(ApiMessageType.METADATA, 0, 12)));
        ApiVersionsResponseData resp = r.apiVersions().handle(context(3),
            new ApiVersionsRequestData().setClientSoftwareName("kaas-test").setClientSoftwareVersion("1.0.0")).join();
        assertThat(resp.errorCode()).isZero();
        assertThat(resp.throttleTimeMs()).isZero();
        assertThat(resp.apiKeys()).hasSize(2);
        assertThat(resp.supportedFeatures()).isEmpty();
        assertThat(resp.finalizedFeatures()).isEmpty();
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
        HandlerRegistry r = HandlerRegistry.of(List.of(new Fake(ApiMessageType.METADATA, 0, 12)));
        ApiVersionsResponseData resp = r.apiVersions().unsupportedVersionResponse();
        assertThat(resp.errorCode()).isEqualTo((short) 35);
        assertThat(resp.apiKeys()).hasSize(2);
    }

    private static RequestContext context(int version) {
        return new RequestContext((short) version, 1, "test", null, "PLAINTEXT");
    }
}
