package io.kaas.broker.network;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.wire.message.ApiMessageType;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.common.requests.AbstractResponse;
import org.junit.jupiter.api.Test;

/** The table of versions that throttle themselves agrees with Kafka 4.4's own response classes. */
class ClientThrottlingTest {

    @Test
    void agreesWithKafkasShouldClientThrottleForEveryApiAndVersion() {
        List<String> differences = new ArrayList<>();
        int checked = 0;
        for (ApiKeys key : ApiKeys.values()) {
            ApiMessageType ours = ApiMessageType.fromApiKey(key.id);
            for (short version : key.allVersions()) {
                AbstractResponse response = AbstractResponse.parseResponse(key,
                        MessageUtil.toByteBufferAccessor(key.messageType.newResponse(), version), version);
                boolean kafka = response.shouldClientThrottle(version);
                if (kafka != ClientThrottling.throttlesItself(ours, version)) {
                    differences.add(key.name + " v" + version + ": Kafka says " + kafka);
                }
                checked++;
            }
        }
        assertThat(differences).isEmpty();
        assertThat(checked).isGreaterThan(300);
    }

    @Test
    void oldProduceAndFetchDoNotThrottleThemselvesNewOnesDo() {
        assertThat(ClientThrottling.throttlesItself(ApiMessageType.PRODUCE, (short) 5)).isFalse();
        assertThat(ClientThrottling.throttlesItself(ApiMessageType.PRODUCE, (short) 6)).isTrue();
        assertThat(ClientThrottling.throttlesItself(ApiMessageType.FETCH, (short) 7)).isFalse();
        assertThat(ClientThrottling.throttlesItself(ApiMessageType.FETCH, (short) 8)).isTrue();
        assertThat(ClientThrottling.throttlesItself(ApiMessageType.WRITE_TXN_MARKERS, (short) 2)).isFalse();
        assertThat(ClientThrottling.throttlesItself(ApiMessageType.DESCRIBE_CLUSTER, (short) 0)).isTrue();
    }
}
