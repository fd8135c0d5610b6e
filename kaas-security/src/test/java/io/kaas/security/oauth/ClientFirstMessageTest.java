package io.kaas.security.oauth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import javax.security.sasl.SaslException;
import org.junit.jupiter.api.Test;

class ClientFirstMessageTest {

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void parsesTheTokenTheAuthorizationIdAndExtensions() throws Exception {
        ClientFirstMessage m = ClientFirstMessage.parse(bytes("n,a=al=2Cice=3D,\u0001auth=Bearer abc.def-_.ghi\u0001"
            + "traceId=42\u0001logicalCluster=lkc 1\u0001\u0001"));
        assertThat(m.authorizationId()).isEqualTo("al,ice=");
        assertThat(m.token()).isEqualTo("abc.def-_.ghi");
        assertThat(m.extensions()).containsOnly(Map.entry("traceId", "42"), Map.entry("logicalCluster", "lkc 1"));
        assertThat(m.toString()).doesNotContain("abc.def");
    }

    @Test
    void theSchemeIsCaseInsensitiveAndTheAuthorizationIdOptional() throws Exception {
        ClientFirstMessage m = ClientFirstMessage.parse(bytes("n,,\u0001auth=bearer t\u0001\u0001"));
        assertThat(m.authorizationId()).isEmpty();
        assertThat(m.token()).isEqualTo("t");
        assertThat(m.extensions()).isEmpty();
    }

    @Test
    void aHugeMessageIsParsedWithoutDeepRecursion() throws Exception {
        StringBuilder s = new StringBuilder("n,,\u0001auth=Bearer t\u0001");
        for (int i = 0; i < 100_000; i++) {
            s.append("k=v\u0001");
        }
        ClientFirstMessage m = ClientFirstMessage.parse(bytes(s.append('\u0001').toString()));
        assertThat(m.extensions()).containsOnly(Map.entry("k", "v"));
        String longName = "n,a=" + "x".repeat(200_000) + ",\u0001auth=Bearer t\u0001\u0001";
        assertThat(ClientFirstMessage.parse(bytes(longName)).authorizationId()).hasSize(200_000);
    }

    @Test
    void malformedMessagesAreRefused() {
        for (String bad : new String[] {"", "n,,", "n,,\u0001\u0001", "y,,\u0001auth=Bearer t\u0001\u0001",
                "n,,\u0001auth=Bearer t\u0001", "n,,\u0001auth=Basic dXNlcjpwdw\u0001\u0001", "n,,\u0001auth=Bearer \u0001\u0001",
                "n,,\u0001auth=Bearer a b\u0001\u0001", "n,,\u0001k=v\u0001\u0001", "n,,\u0001auth=Bearer t\u0001bad key=v\u0001\u0001",
                "n,a=x,y,\u0001auth=Bearer t\u0001\u0001", "n,a=bad=name,\u0001auth=Bearer t\u0001\u0001",
                "n,x=y,\u0001auth=Bearer t\u0001\u0001", "n,,\u0001auth=Bearer t\u0001=v\u0001\u0001",
                "n,,\u0001auth=Bearer t\u0001\u0001\u0001", "n,,\u0001auth=Bearer t\u0001k=\u0001\u0001"}) {
            assertThatThrownBy(() -> ClientFirstMessage.parse(bytes(bad))).as(bad.replace('\u0001', '^'))
                .isInstanceOf(SaslException.class).hasMessageContaining("OAUTHBEARER");
        }
    }
}
