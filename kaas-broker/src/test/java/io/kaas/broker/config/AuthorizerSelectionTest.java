package io.kaas.broker.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AuthorizerSelectionTest {
    private static BrokerConfig config(String... keyValues) {
        Map<String, String> values = new HashMap<>(Map.of("node.id", "1"));
        for (int i = 0; i < keyValues.length; i += 2) {
            values.put(keyValues[i], keyValues[i + 1]);
        }
        return BrokerConfig.of(values);
    }

    @Test
    void kafkasClassNamesSelectTheBuiltInAclAuthorizer() {
        assertThat(config().authorizer()).isEqualTo("none");
        assertThat(config("authorizer.class.name", "").authorizer()).isEqualTo("none");
        assertThat(config("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer")
                .authorizer()).isEqualTo("acl");
        assertThat(config("authorizer.class.name", " kafka.security.authorizer.AclAuthorizer ").authorizer())
                .isEqualTo("acl");
        assertThat(config("authorizer", "acl", "authorizer.class.name",
                "org.apache.kafka.metadata.authorizer.StandardAuthorizer").authorizer()).isEqualTo("acl");
        assertThat(config("authorizer", "my-plugin").authorizer()).isEqualTo("my-plugin");
    }

    @Test
    void anotherClassNameFailsNamingTheKeyAndTheWayToSelectAPlugin() {
        assertThatThrownBy(() -> config("authorizer.class.name", "com.example.MyAuthorizer"))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("Invalid value for config 'authorizer.class.name': 'com.example.MyAuthorizer'")
                .hasMessageContaining("authorizer=<name>")
                .satisfies(e -> assertThat(((ConfigException) e).key()).isEqualTo("authorizer.class.name"));
    }

    @Test
    void bothKeysNamingDifferentAuthorizersIsAnError() {
        assertThatThrownBy(() -> config("authorizer", "my-plugin", "authorizer.class.name",
                "kafka.security.authorizer.AclAuthorizer"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("authorizer=my-plugin")
                .hasMessageContaining("set only one of the two keys");
    }
}
