package io.kaas.security.sasl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class JaasConfigTest {

    @Test
    void parsesKafkasPlainServerConfig() {
        JaasConfig config = JaasConfig.parse("org.apache.kafka.common.security.plain.PlainLoginModule required "
            + "username=\"admin\" password=\"admin-secret\" user_admin=\"admin-secret\" user_alice=alice-secret;");
        JaasModule module = config.single();
        assertThat(module.loginModule()).isEqualTo("org.apache.kafka.common.security.plain.PlainLoginModule");
        assertThat(module.flag()).isEqualTo(JaasModule.Flag.REQUIRED);
        assertThat(module.options()).containsExactly(Map.entry("username", "admin"), Map.entry("password", "admin-secret"),
            Map.entry("user_admin", "admin-secret"), Map.entry("user_alice", "alice-secret"));
    }

    @Test
    void quotedValuesKeepSpacesSemicolonsAndEscapes() {
        JaasModule module = JaasConfig.parse("M optional a=\"x y;z\" b='it\\'s' c=\"q\\\"uote\\\\back\\nline\" d=\"\";")
            .single();
        assertThat(module.flag()).isEqualTo(JaasModule.Flag.OPTIONAL);
        assertThat(module.option("a")).isEqualTo("x y;z");
        assertThat(module.option("b")).isEqualTo("it's");
        assertThat(module.option("c")).isEqualTo("q\"uote\\back\nline");
        assertThat(module.option("d")).isEmpty();
    }

    @Test
    void severalModulesFlagsInAnyCaseAndComments() {
        JaasConfig config = JaasConfig.parse("""
            // the first
            a.B REQUISITE k=v; /* the second */ c.D Sufficient;
            e.F optional x="1";""");
        assertThat(config.modules()).extracting(JaasModule::loginModule).containsExactly("a.B", "c.D", "e.F");
        assertThat(config.modules()).extracting(JaasModule::flag)
            .containsExactly(JaasModule.Flag.REQUISITE, JaasModule.Flag.SUFFICIENT, JaasModule.Flag.OPTIONAL);
        assertThat(config.modules().get(1).options()).isEmpty();
        assertThatThrownBy(config::single).hasMessage("JAAS config property contains 3 login modules, should be 1 module");
    }

    @Test
    void aKeyGivenTwiceKeepsTheLastValue() {
        assertThat(JaasConfig.parse("M required k=1 k=2;").single().option("k")).isEqualTo("2");
    }

    @Test
    void badInputIsRefusedWithKafkasWording() {
        assertThatThrownBy(() -> JaasConfig.parse("")).hasMessage("Login module not specified in JAAS config");
        assertThatThrownBy(() -> JaasConfig.parse("  // only a comment\n")).hasMessage("Login module not specified in JAAS config");
        assertThatThrownBy(() -> JaasConfig.parse(null)).hasMessage("Login module not specified in JAAS config");
        assertThatThrownBy(() -> JaasConfig.parse("M"))
            .hasMessage("Login module control flag not specified in JAAS config");
        assertThatThrownBy(() -> JaasConfig.parse("M mandatory;"))
            .hasMessage("Invalid login module control flag 'mandatory' in JAAS config");
        assertThatThrownBy(() -> JaasConfig.parse("M required user=alice"))
            .hasMessage("JAAS config entry not terminated by semi-colon");
        assertThatThrownBy(() -> JaasConfig.parse("M required user=;"))
            .hasMessage("Value not specified for key 'user' in JAAS config");
        assertThatThrownBy(() -> JaasConfig.parse("M required user alice;"))
            .hasMessage("Value not specified for key 'user' in JAAS config");
        assertThatThrownBy(() -> JaasConfig.parse("M required user=\"alice;"))
            .hasMessageStartingWith("Unterminated quoted value");
        assertThatThrownBy(() -> JaasConfig.parse("M required /* open"))
            .hasMessage("Unterminated comment in JAAS config");
        assertThatThrownBy(() -> JaasConfig.parse("= required;")).hasMessageStartingWith("Login module class expected");
        assertThatThrownBy(() -> JaasConfig.parse("M required =x;")).hasMessageStartingWith("Option name expected");
    }

    @Test
    void toStringNeverShowsAValue() {
        JaasConfig config = JaasConfig.parse("M required user_admin=\"s3cret-value\";");
        assertThat(config.toString()).contains("user_admin").doesNotContain("s3cret-value");
    }

    @Test
    void ofSettingsNamesTheKeyOnEveryFailure() {
        assertThatThrownBy(() -> JaasConfig.of(TestSettings.of("SASL_PLAINTEXT", "PLAIN", Map.of()), "M"))
            .hasMessageContaining("listener.name.sasl_plaintext.plain.sasl.jaas.config is not set");
        assertThatThrownBy(() -> JaasConfig.of(TestSettings.of("SASL_PLAINTEXT", "PLAIN",
                Map.of("plain.sasl.jaas.config", "M required a=b")), "M"))
            .hasMessage("listener.name.sasl_plaintext.plain.sasl.jaas.config: JAAS config entry not terminated by semi-colon");
        assertThatThrownBy(() -> JaasConfig.of(TestSettings.of("SASL_PLAINTEXT", "PLAIN",
                Map.of("plain.sasl.jaas.config", "M required; N required;")), "M"))
            .hasMessageContaining("contains 2 login modules");
    }
}
