package io.kaas.broker.quota;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QuotaValidationTest {

    @Test
    void entitiesAsKafkasController() {
        assertThat(QuotaValidation.invalidEntity(Map.of())).isEqualTo("Invalid empty client quota entity");
        assertThat(QuotaValidation.invalidEntity(Map.of("topic", "t")))
                .isEqualTo("Unhandled client quota entity type: topic");
        assertThat(QuotaValidation.invalidEntity(Map.of("user", ""))).isEqualTo("Empty user not supported");
        assertThat(QuotaValidation.invalidEntity(Map.of("ip", "127.0.0.1", "user", "u")))
                .isEqualTo("Invalid quota entity combination, IP entity shouldnot be combined with User or ClientId");
        Map<String, String> defaults = new HashMap<>();
        defaults.put("user", null);
        defaults.put("client-id", null);
        assertThat(QuotaValidation.invalidEntity(defaults)).isNull();
        assertThat(QuotaValidation.invalidEntity(Map.of("ip", "127.0.0.1"))).isNull();
    }

    @Test
    void keysAndValuesAsKafkasController() {
        Map<String, String> client = Map.of("client-id", "c");
        assertThat(QuotaValidation.invalidValue(client, "producer_byte_rate", 1024)).isNull();
        assertThat(QuotaValidation.invalidValue(client, "request_percentage", 12.5)).isNull();
        assertThat(QuotaValidation.invalidValue(client, "nope", 1)).isEqualTo("Invalid configuration key nope");
        assertThat(QuotaValidation.invalidValue(client, "connection_creation_rate", 1))
                .isEqualTo("Invalid configuration key connection_creation_rate");
        assertThat(QuotaValidation.invalidValue(client, "consumer_byte_rate", -1))
                .isEqualTo("Quota consumer_byte_rate must be greater than 0");
        assertThat(QuotaValidation.invalidValue(client, "consumer_byte_rate", 0))
                .isEqualTo("Quota consumer_byte_rate must be greater than 0");
        assertThat(QuotaValidation.invalidValue(client, "producer_byte_rate", 1.5))
                .isEqualTo("producer_byte_rate cannot be a fractional value.");
        assertThat(QuotaValidation.invalidValue(client, "producer_byte_rate", 1e30))
                .isEqualTo("Proposed value for producer_byte_rate is too large for a LONG.");
        Map<String, String> ip = Map.of("ip", "127.0.0.1");
        assertThat(QuotaValidation.invalidValue(ip, "connection_creation_rate", 10)).isNull();
        assertThat(QuotaValidation.invalidValue(ip, "producer_byte_rate", 10))
                .isEqualTo("Invalid configuration key producer_byte_rate");
        assertThat(QuotaValidation.invalidValue(ip, "connection_creation_rate", 1e10))
                .isEqualTo("Proposed value for connection_creation_rate is too large for an INT.");
    }
}
