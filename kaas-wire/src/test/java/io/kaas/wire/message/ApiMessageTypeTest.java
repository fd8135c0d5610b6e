package io.kaas.wire.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.wire.protocol.UnsupportedVersionException;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Our registry against Kafka's generated {@code ApiMessageType}, constant by constant and version by version. */
class ApiMessageTypeTest {

    @Test
    void matchesKafkasRegistryForEveryApi() {
        org.apache.kafka.common.message.ApiMessageType[] theirs = org.apache.kafka.common.message.ApiMessageType.values();
        assertThat(ApiMessageType.values()).hasSameSizeAs(theirs);
        for (org.apache.kafka.common.message.ApiMessageType k : theirs) {
            ApiMessageType ours = ApiMessageType.valueOf(k.name());
            assertThat(ours.apiKey()).isEqualTo(k.apiKey());
            assertThat(ApiMessageType.fromApiKey(k.apiKey())).isSameAs(ours);
            assertThat(ours.apiName()).isEqualTo(k.name);
            assertThat(ours.lowestSupportedVersion()).as(k.name()).isEqualTo(k.lowestSupportedVersion());
            assertThat(ours.highestSupportedVersion()).as(k.name()).isEqualTo(k.highestSupportedVersion(true));
            assertThat(ours.latestVersionUnstable()).as(k.name()).isEqualTo(k.latestVersionUnstable());
            assertThat(ours.listeners()).as(k.name()).isEqualTo(k.listeners().stream()
                .map(l -> l.name().toLowerCase(Locale.ROOT)).collect(Collectors.toSet()));
            assertThat(ours.newRequest().apiKey()).isEqualTo(k.apiKey());
            assertThat(ours.newResponse().apiKey()).isEqualTo(k.apiKey());
            if (k.highestSupportedVersion(true) < k.lowestSupportedVersion()) {
                continue; // removed APIs (validVersions "none"): Kafka's factories throw, ours still build empty bodies
            }
            assertThat(ours.newRequest().getClass().getSimpleName()).isEqualTo(k.newRequest().getClass().getSimpleName());
            assertThat(ours.newResponse().getClass().getSimpleName()).isEqualTo(k.newResponse().getClass().getSimpleName());
            for (short v = k.lowestSupportedVersion(); v <= k.highestSupportedVersion(true); v++) {
                assertThat(ours.requestHeaderVersion(v)).as("%s v%d request header", k.name(), v)
                    .isEqualTo(k.requestHeaderVersion(v));
                assertThat(ours.responseHeaderVersion(v)).as("%s v%d response header", k.name(), v)
                    .isEqualTo(k.responseHeaderVersion(v));
            }
        }
    }

    @Test
    void headerVersionQuirks() {
        assertThat(ApiMessageType.API_VERSIONS.responseHeaderVersion((short) 4)).isZero();
        assertThat(ApiMessageType.API_VERSIONS.requestHeaderVersion((short) 4)).isEqualTo((short) 2);
        assertThat(ApiMessageType.PRODUCE.requestHeaderVersion((short) 8)).isEqualTo((short) 1);
        assertThat(ApiMessageType.PRODUCE.requestHeaderVersion((short) 9)).isEqualTo((short) 2);
        assertThat(ApiMessageType.CONTROLLED_SHUTDOWN.requestHeaderVersion((short) 0)).isZero();
        assertThat(ApiMessageType.METADATA.listeners()).contains("broker");
    }

    @Test
    void unknownApiKeyIsRejected() {
        short unknown = (short) (Arrays.stream(ApiMessageType.values()).mapToInt(ApiMessageType::apiKey).max().orElse(0) + 1);
        assertThatThrownBy(() -> ApiMessageType.fromApiKey(unknown)).isInstanceOf(UnsupportedVersionException.class);
        assertThatThrownBy(() -> ApiMessageType.fromApiKey((short) -1)).isInstanceOf(UnsupportedVersionException.class);
    }
}
