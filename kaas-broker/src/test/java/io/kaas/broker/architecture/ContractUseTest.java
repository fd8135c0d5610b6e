package io.kaas.broker.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.kaas.broker.auth.Check;
import io.kaas.broker.request.ApiContracts;
import io.kaas.broker.request.ApiHandler;
import io.kaas.broker.request.ApiSpec;
import io.kaas.broker.request.RequestContext;
import io.kaas.broker.request.Requirement;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Checks, from the bytecode, that a handler whose contract declares per-resource checks asks
 * {@link RequestContext#access()} (itself or through a helper of its package), so a declared check
 * cannot be left unasked. A handler is paired with its contract by name ({@code JoinGroupHandler} serves
 * the JoinGroup row); that it is registered with that row is what {@code ServedApi.of}'s types enforce
 * (the handler's request and response classes are the row's) and ApiContractsIT observes.
 */
class ContractUseTest {
    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.kaas.broker.handler", "io.kaas.broker.request");

    @Test
    void everyHandlerHasAContractAndAsksTheChecksItDeclares() throws Exception {
        Map<String, ApiSpec<?, ?>> contractByHandlerName = new HashMap<>();
        for (Field f : ApiContracts.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == ApiSpec.class) {
                ApiSpec<?, ?> spec = (ApiSpec<?, ?>) f.get(null);
                contractByHandlerName.put(spec.api().apiName() + "Handler", spec);
            }
        }
        List<JavaClass> handlers = CLASSES.stream()
                .filter(c -> !c.isInterface() && c.isAssignableTo(ApiHandler.class)
                        && c.getPackageName().startsWith("io.kaas.broker.handler"))
                .toList();
        assertThat(handlers).hasSize(50);
        for (JavaClass handler : handlers) {
            ApiSpec<?, ?> spec = contractByHandlerName.get(handler.getSimpleName());
            assertThat(spec).as("the contract of %s", handler.getSimpleName()).isNotNull();
            Set<Check> handlerChecks = new LinkedHashSet<>(spec.checks());
            for (Requirement<?, ?> r : spec.requirements()) {
                handlerChecks.remove(Check.of(r.operation(), r.type()));
            }
            if (!handlerChecks.isEmpty()) {
                assertThat(asksAccess(handler)).as("%s (checks %s) asks RequestContext.access()",
                        handler.getSimpleName(), handlerChecks).isTrue();
            }
        }
    }

    /** Whether {@code handler}, or a class of its package it calls, calls {@link RequestContext#access()}. */
    private static boolean asksAccess(JavaClass handler) {
        if (callsAccess(handler)) {
            return true;
        }
        return handler.getMethodCallsFromSelf().stream().map(JavaAccess::getTargetOwner)
                .filter(c -> c.getPackageName().equals(handler.getPackageName()) && !c.equals(handler))
                .anyMatch(ContractUseTest::callsAccess);
    }

    private static boolean callsAccess(JavaClass c) {
        return c.getMethodCallsFromSelf().stream().anyMatch(call -> call.getTargetOwner().isEquivalentTo(RequestContext.class)
                && call.getName().equals("access"));
    }
}
