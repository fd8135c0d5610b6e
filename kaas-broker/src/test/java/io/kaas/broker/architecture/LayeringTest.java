package io.kaas.broker.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The layering rules, checked over the production classes of the broker and of every module on its
 * test class path (the SPI, the wire codec, the plugin loader and the backends; the drop-in plugins,
 * which are zips and not on the class path, in {@link PluginLayeringTest}):
 * <ul>
 *   <li>the network layer reaches handlers only through the request pipeline ({@code io.kaas.broker.request}),
 *       never a handler class nor the fetch machinery; handlers (and {@code io.kaas.broker.fetch}) never reach
 *       into the network layer, and ask access only through their contract;</li>
 *   <li>authorization ({@code io.kaas.broker.auth}) knows neither requests, handlers nor the network;</li>
 *   <li>backends (storage engines, cluster stores, the plugin loader, authorizers, examples) and the modules
 *       beside the broker (kaas-records, kaas-coordinator, kaas-wire, kaas-api) never import the broker;</li>
 *   <li>{@code kaas-api} depends on the JDK and slf4j only.</li>
 * </ul>
 */
@AnalyzeClasses(packages = "io.kaas", importOptions = ImportOption.DoNotIncludeTests.class)
class LayeringTest {

    @ArchTest
    static final ArchRule networkDoesNotImportHandlers = noClasses()
            .that().resideInAPackage("io.kaas.broker.network..")
            .should().dependOnClassesThat().resideInAnyPackage("io.kaas.broker.handler..", "io.kaas.broker.fetch..")
            .because("the network layer dispatches through HandlerRegistry (io.kaas.broker.request), not to handler classes");

    @ArchTest
    static final ArchRule handlersDoNotReachIntoTheNetworkLayer = noClasses()
            .that().resideInAnyPackage("io.kaas.broker.handler..", "io.kaas.broker.fetch..")
            .should().dependOnClassesThat().resideInAPackage("io.kaas.broker.network..")
            .because("handlers see requests through io.kaas.broker.request (RequestContext)");

    @ArchTest
    static final ArchRule theFetchMachineryKnowsNoHandler = noClasses()
            .that().resideInAPackage("io.kaas.broker.fetch..")
            .should().dependOnClassesThat().resideInAPackage("io.kaas.broker.handler..")
            .because("FetchHandler uses the fetch package, not the other way round: no package cycle");

    @ArchTest
    static final ArchRule handlersAskAccessOnlyThroughTheirContract = noClasses()
            .that().resideInAnyPackage("io.kaas.broker.handler..", "io.kaas.broker.fetch..")
            .should().dependOnClassesThat().haveFullyQualifiedName("io.kaas.broker.auth.AccessGate")
            .because("a handler asks through RequestContext.access(), which answers only its contract's checks");

    @ArchTest
    static final ArchRule theRequestPipelineKnowsNoHandlerNorTheNetwork = noClasses()
            .that().resideInAPackage("io.kaas.broker.request..")
            .should().dependOnClassesThat().resideInAnyPackage("io.kaas.broker.handler..", "io.kaas.broker.network..");

    @ArchTest
    static final ArchRule authorizationKnowsNoRequestLayer = noClasses()
            .that().resideInAPackage("io.kaas.broker.auth..")
            .should().dependOnClassesThat()
            .resideInAnyPackage("io.kaas.broker.request..", "io.kaas.broker.handler..", "io.kaas.broker.network..");

    /** Also checked over the drop-in plugins' own jars, which are not on the class path ({@link PluginLayeringTest}). */
    static final ArchRule BACKENDS_NEVER_IMPORT_THE_BROKER = noClasses()
            .that().resideInAnyPackage("io.kaas.engine..", "io.kaas.cluster..", "io.kaas.plugins..",
                    "io.kaas.authorizer..", "io.kaas.example..", "io.kaas.api..", "io.kaas.wire..",
                    "io.kaas.records..", "io.kaas.coordinator..", "io.kaas.security..")
            .should().dependOnClassesThat().resideInAPackage("io.kaas.broker..")
            .because("only the distribution and the benchmarks depend on kaas-broker");

    @ArchTest
    static final ArchRule backendsNeverImportTheBroker = BACKENDS_NEVER_IMPORT_THE_BROKER;

    @ArchTest
    static final ArchRule theSpiDependsOnTheJdkAndSlf4jOnly = classes()
            .that().resideInAPackage("io.kaas.api..")
            .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "io.kaas.api..", "org.slf4j..")
            .because("kaas-api is the plugins' SPI and stays JDK-only");

    /** The rules above are only worth their scan if it holds every module they speak of. */
    @ArchTest
    static void theScanHoldsTheBrokerTheSpiAndEveryBackend(JavaClasses imported) {
        Set<String> packages = imported.stream().map(JavaClass::getPackageName).collect(Collectors.toSet());
        assertThat(packages).contains("io.kaas.broker.network", "io.kaas.broker.handler", "io.kaas.broker.request",
                "io.kaas.broker.auth", "io.kaas.api.auth", "io.kaas.wire.protocol", "io.kaas.plugins",
                "io.kaas.engine.segments", "io.kaas.cluster.files", "io.kaas.authorizer.acl", "io.kaas.records",
                "io.kaas.coordinator.group", "io.kaas.broker.fetch", "io.kaas.security.sasl");
    }
}
