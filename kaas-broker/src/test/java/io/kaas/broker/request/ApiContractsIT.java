package io.kaas.broker.request;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.broker.KaasBroker;
import io.kaas.broker.config.BrokerConfig;
import io.kaas.broker.network.RawClient;
import io.kaas.wire.message.ApiVersionsResponseData;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The running broker advertises exactly the contracts of {@link ApiContracts}, one row each. */
@Timeout(60)
class ApiContractsIT {
    @TempDir
    Path dir;

    /** Every {@code public static final ApiSpec} row of the table. */
    static List<ApiSpec<?, ?>> rows() throws IllegalAccessException {
        List<ApiSpec<?, ?>> rows = new ArrayList<>();
        for (Field f : ApiContracts.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == ApiSpec.class) {
                rows.add((ApiSpec<?, ?>) f.get(null));
            }
        }
        return rows;
    }

    @Test
    void theBrokerAdvertisesEveryContractAndNothingElse() throws Exception {
        List<ApiVersionsResponseData.ApiVersion> expected = new ArrayList<>();
        for (ApiSpec<?, ?> spec : rows()) {
            expected.add(new ApiVersionsResponseData.ApiVersion().setApiKey(spec.api().apiKey())
                    .setMinVersion(spec.advertisedMinVersion()).setMaxVersion(spec.maxVersion()));
        }
        assertThat(expected).hasSize(51);
        try (KaasBroker broker = KaasBroker.start(BrokerConfig.of(Map.of("listeners", "PLAINTEXT://127.0.0.1:0", "admin.listener", "none",
                "log.dirs", dir.toString(), "num.io.threads", "2", "num.network.threads", "1")));
             RawClient c = new RawClient(broker.boundPort())) {
            assertThat(c.apiVersions((short) 3, 1).apiKeys()).containsExactlyInAnyOrderElementsOf(expected);
        }
    }

    @Test
    void apiVersionsV3CarriesTheFeaturesWithAnEpochThatNeverGoesBackAcrossRestarts() throws Exception {
        Map<String, String> config = Map.of("listeners", "PLAINTEXT://127.0.0.1:0", "admin.listener", "none", "log.dirs", dir.toString(),
                "num.io.threads", "2", "num.network.threads", "1");
        long firstEpoch;
        try (KaasBroker broker = KaasBroker.start(BrokerConfig.of(config));
             RawClient c = new RawClient(broker.boundPort())) {
            ApiVersionsResponseData v3 = c.apiVersions((short) 3, 1);
            assertThat(v3.supportedFeatures()).extracting(f -> f.name() + " " + f.minVersion() + "-" + f.maxVersion())
                    .containsExactlyInAnyOrder("transaction.version 0-2", "group.version 0-1");
            assertThat(v3.finalizedFeatures()).extracting(f -> f.name() + " " + f.maxVersionLevel())
                    .containsExactlyInAnyOrder("transaction.version 2", "group.version 1");
            firstEpoch = v3.finalizedFeaturesEpoch();
            assertThat(firstEpoch).isPositive();
            assertThat(c.apiVersions((short) 2, 2).finalizedFeatures()).as("no features below v3").isEmpty();
        }
        Map<String, String> levelOne = new java.util.HashMap<>(config);
        levelOne.put("transaction.version", "1");
        try (KaasBroker broker = KaasBroker.start(BrokerConfig.of(levelOne));
             RawClient c = new RawClient(broker.boundPort())) {
            ApiVersionsResponseData v3 = c.apiVersions((short) 3, 1);
            assertThat(v3.finalizedFeatures()).extracting(f -> f.name() + " " + f.maxVersionLevel())
                    .containsExactlyInAnyOrder("transaction.version 1", "group.version 1");
            assertThat(v3.finalizedFeaturesEpoch()).as("after a restart with another level").isGreaterThan(firstEpoch);
        }
    }

    @Test
    void eachApiHasOneRow() throws Exception {
        assertThat(rows()).extracting(ApiSpec::api).doesNotHaveDuplicates();
    }
}
