package io.kaas.security.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Kafka's {@code ssl.principal.mapping.rules} syntax and semantics, with its bad input. */
class SslPrincipalMapperTest {

    private static final String DN = "CN=Alice Smith,OU=Eng,O=Kaas,C=FR";

    @Test
    void defaultKeepsTheDistinguishedName() {
        assertThat(SslPrincipalMapper.parse(null).name(DN)).contains(DN);
        assertThat(SslPrincipalMapper.parse("DEFAULT").name(DN)).contains(DN);
    }

    @Test
    void theFirstMatchingRuleWinsWithItsCaseChange() {
        SslPrincipalMapper m = SslPrincipalMapper.parse(
            "RULE:^CN=(.*?),OU=Ops,.*$/ops-$1/, RULE:^CN=(.*?),OU=(.*?),O=(.*?),.*$/$1@$3/L ,DEFAULT");
        assertThat(m.name(DN)).contains("alice smith@kaas");
        assertThat(m.name("CN=bob,OU=Ops,O=Kaas,C=FR")).contains("ops-bob");
        assertThat(m.name("CN=nobody")).contains("CN=nobody");
        assertThat(SslPrincipalMapper.parse("RULE:^CN=([^,]*).*$/$1/U").name(DN)).contains("ALICE SMITH");
    }

    @Test
    void withoutDefaultAnUnmatchedNameHasNoPrincipal() {
        assertThat(SslPrincipalMapper.parse("RULE:^CN=(.*),OU=Ops.*$/$1/").name(DN)).isEqualTo(Optional.empty());
    }

    @Test
    void escapedSlashesAndCommasInsidePatternsAndMissingGroupsStayLiteral() {
        assertThat(SslPrincipalMapper.parse("RULE:^CN=([^,]*),OU=([^,]*).*$/$2\\/$1/").name(DN)).contains("Eng/Alice Smith");
        // $3 names no group of a two-group pattern: it stays "$3", as Kafka does.
        assertThat(SslPrincipalMapper.parse("RULE:^CN=([^,]*),OU=([^,]*).*$/$1-$3/").name(DN)).contains("Alice Smith-$3");
        assertThat(SslPrincipalMapper.parse("RULE:^CN=(.*),OU=Eng,O=(.*),C=FR$/$2:$1/").name(DN)).contains("Kaas:Alice Smith");
    }

    @Test
    void emptyRulesAreIgnored() {
        assertThat(SslPrincipalMapper.parse(" , RULE:^CN=([^,]*).*$/$1/,, DEFAULT ,").name(DN)).contains("Alice Smith");
    }

    @Test
    void malformedRulesNameTheKey() {
        for (String bad : new String[] {"RULE:^CN=(.*)$/$1", "RULE:^CN=(.*)$", "DEFAULTS", "RULE:^CN=(.*)$/$1/X",
                "RULE:^CN=(.*$/$1/", "foo", "DEFAULT DEFAULT", "RULE:a/b/L junk"}) {
            assertThatThrownBy(() -> SslPrincipalMapper.parse(bad)).as(bad)
                .isInstanceOf(TlsConfigException.class)
                .hasMessageStartingWith("Invalid rule")
                .satisfies(e -> assertThat(((TlsConfigException) e).key()).isEqualTo("ssl.principal.mapping.rules"));
        }
    }
}
