package io.kaas.cluster.zookeeper.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.api.cluster.BrokerRegistration;
import io.kaas.api.cluster.RegisteredEndpoint;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * A broker registration's node in ZooKeeper: the software version and start time round-trip, and a registration
 * written without them (by an older broker, during a rolling upgrade) still reads, with both unknown.
 */
class RegistrationJsonTest {

    private static final List<RegisteredEndpoint> ENDPOINTS =
            List.of(new RegisteredEndpoint("PLAINTEXT", "PLAINTEXT", "10.0.0.2", 9092));

    @Test
    void versionAndStartTimeRoundTrip() {
        BrokerRegistration r = new BrokerRegistration(2, ENDPOINTS, Optional.of("rack-a"), "host-2", 42L,
                Optional.of("1.4.0"), OptionalLong.of(1_733_100_000_000L));
        byte[] bytes = Json.registration(r);
        assertThat(new String(bytes, StandardCharsets.UTF_8)).contains("\"software_version\":\"1.4.0\"")
                .contains("\"started_ms\":1733100000000");
        assertThat(Json.registration(bytes)).isEqualTo(r);
    }

    @Test
    void aRegistrationWithoutThemReadsAsUnknown() {
        byte[] older = """
                {"version":1,"node_id":2,"host":"host-2","pid":42,"rack":null,
                 "endpoints":[{"listener":"PLAINTEXT","security_protocol":"PLAINTEXT","host":"10.0.0.2","port":9092}]}
                """.getBytes(StandardCharsets.UTF_8);
        BrokerRegistration r = Json.registration(older);
        assertThat(r.version()).isEmpty();
        assertThat(r.startedMs()).isEmpty();
        assertThat(r).isEqualTo(new BrokerRegistration(2, ENDPOINTS, Optional.empty(), "host-2", 42L));
        // Written back without them: nothing is made up.
        assertThat(new String(Json.registration(r), StandardCharsets.UTF_8)).doesNotContain("software_version")
                .doesNotContain("started_ms");
    }

    @Test
    void aMistypedVersionOrStartTimeIsUnknown() {
        byte[] odd = """
                {"version":1,"node_id":2,"host":"host-2","pid":42,"rack":null,"software_version":7,"started_ms":"soon",
                 "endpoints":[{"listener":"PLAINTEXT","security_protocol":"PLAINTEXT","host":"10.0.0.2","port":9092}]}
                """.getBytes(StandardCharsets.UTF_8);
        BrokerRegistration r = Json.registration(odd);
        assertThat(r.version()).isEmpty();
        assertThat(r.startedMs()).isEmpty();
    }
}
