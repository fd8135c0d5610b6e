package io.kaas.broker.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kaas.api.auth.AccessControlEntry;
import io.kaas.api.auth.AclBinding;
import io.kaas.api.auth.AclBindingFilter;
import io.kaas.api.auth.AclCreateResult;
import io.kaas.api.auth.AclDeleteResult;
import io.kaas.api.auth.AclPermissionType;
import io.kaas.api.auth.AuthorizableRequestContext;
import io.kaas.api.auth.KafkaPrincipal;
import io.kaas.api.auth.Operation;
import io.kaas.api.auth.PatternType;
import io.kaas.api.auth.ResourcePattern;
import io.kaas.api.auth.ResourceType;
import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

class AclAdminTest {
    private static final AuthorizableRequestContext WHO = new AuthorizableRequestContext(KafkaPrincipal.ANONYMOUS,
            InetAddress.getLoopbackAddress(), "PLAINTEXT", "test");
    private static final AclBinding BINDING = new AclBinding(new ResourcePattern(ResourceType.TOPIC, "t",
            PatternType.LITERAL), new AccessControlEntry(KafkaPrincipal.ANONYMOUS, "*", Operation.READ,
            AclPermissionType.ALLOW));

    @Test
    void noAuthorizerOrOneThatDoesNotManageAclsHasNoAclAdmin() {
        assertThat(AccessGate.ALLOW_ALL.aclAdmin()).isEmpty();
        assertThat(TestGates.allowing(a -> true).aclAdmin()).as("the SPI's default: managesAcls() is false").isEmpty();
    }

    /** An authorizer that manages ACLs but answers the wrong number of results. */
    private static final class Miscounting extends TestGates.Recording {
        Miscounting() {
            super(a -> true);
        }

        @Override
        public boolean managesAcls() {
            return true;
        }

        @Override
        public List<AclCreateResult> createAcls(AuthorizableRequestContext request, List<AclBinding> bindings) {
            return List.of();
        }

        @Override
        public List<AclDeleteResult> deleteAcls(AuthorizableRequestContext request, List<AclBindingFilter> filters) {
            return null;
        }
    }

    @Test
    void anAuthorizerAnsweringTheWrongNumberOfResultsFailsTheRequestNamingIt() {
        AclAdmin admin = TestGates.allowing(new Miscounting()).aclAdmin().orElseThrow();
        assertThatThrownBy(() -> admin.createAcls(WHO, List.of(BINDING))).isInstanceOf(IllegalStateException.class)
                .hasMessage("Authorizer 'test' answered 0 results for 1 ACLs to create");
        assertThatThrownBy(() -> admin.deleteAcls(WHO, List.of(AclBindingFilter.ANY)))
                .isInstanceOf(IllegalStateException.class).hasMessage("Authorizer 'test' answered null for 1 ACL filters");
    }
}
