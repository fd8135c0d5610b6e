package io.kaas.broker.it.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.kaas.broker.it.TestBroker;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;
import org.openqa.selenium.HasAuthentication;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.UsernameAndPassword;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The web console end to end in Debian's headless Chromium (Selenium through /usr/bin/chromedriver): a broker in
 * this JVM holding a topic written by the real Java producer (text, JSON, binary values, headers, a value larger than
 * the browser's cut) and a consumer group that committed part of it; the pages must show them, the create-topic
 * form must create a topic an Admin client sees, and each page is captured (light, dark, phone width) under
 * {@code target/console-screenshots/}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ConsoleBrowserIT {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path SCREENSHOTS = Path.of("target", "console-screenshots");
    private static final String TOPIC = "orders";
    private static final String GROUP = "billing";
    private static final byte[] BINARY = {0x00, 0x01, (byte) 0xfe, (byte) 0xff, (byte) 0x80, 0x7f, 0x1b};
    private static final String JSON = "{\"id\":42,\"item\":\"book\",\"tags\":[\"a\",\"b\"]}";
    private static final String LARGE = "x".repeat(10_000);

    private Path dir;
    private TestBroker broker;
    private KafkaConsumer<String, String> member;
    private ChromeDriverService service;
    private ChromeDriver browser;
    private WebDriverWait wait;
    private String base;
    private long messages;
    private long expectedLag;

    @BeforeAll
    void start() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
            "the console's browser tests need Debian's chromium and chromium-driver (/usr/bin/chromium, "
                + "/usr/bin/chromedriver; apt-get install chromium chromium-driver): skipped");
        dir = Files.createTempDirectory("console-it");
        broker = TestBroker.builder(dir).noInitialRebalanceDelay().start();
        base = "http://127.0.0.1:" + broker.broker.adminPort() + "/console/";
        broker.createTopic(TOPIC, 2);
        produce();
        member = broker.groupConsumer(GROUP, Map.of());
        member.subscribe(List.of(TOPIC));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (member.assignment().size() < 2 && System.nanoTime() < deadline) {
            member.poll(Duration.ofMillis(200));
        }
        assertThat(member.assignment()).hasSize(2);
        member.commitSync(Map.of(new TopicPartition(TOPIC, 0), new OffsetAndMetadata(2),
            new TopicPartition(TOPIC, 1), new OffsetAndMetadata(1)));
        expectedLag = messages - 3;
        Files.createDirectories(SCREENSHOTS);
        startBrowser();
    }

    private void produce() throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = broker.bytesProducer(Map.of("acks", "all"))) {
            for (int i = 0; i < 5; i++) {
                send(producer, 0, "text-" + i, ("hello " + i).getBytes(StandardCharsets.UTF_8));
            }
            send(producer, 0, "json-key", JSON.getBytes(StandardCharsets.UTF_8));
            ProducerRecord<byte[], byte[]> binary = new ProducerRecord<>(TOPIC, 1, bytes("binary-key"), BINARY);
            binary.headers().add(new RecordHeader("trace-id", bytes("abc123")));
            binary.headers().add(new RecordHeader("content-type", bytes("application/octet-stream")));
            producer.send(binary).get(10, TimeUnit.SECONDS);
            messages++;
            for (int i = 0; i < 3; i++) {
                send(producer, 1, "more-" + i, ("more " + i).getBytes(StandardCharsets.UTF_8));
            }
            send(producer, 1, "large-key", LARGE.getBytes(StandardCharsets.UTF_8));
        }
    }

    private void send(KafkaProducer<byte[], byte[]> producer, int partition, String key, byte[] value) throws Exception {
        producer.send(new ProducerRecord<>(TOPIC, partition, bytes(key), value)).get(10, TimeUnit.SECONDS);
        messages++;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private void startBrowser() throws IOException {
        Path profile = Files.createDirectories(Path.of("target", "console-chromium", UUID.randomUUID().toString()));
        service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort()
            .withLogFile(Path.of("target", "console-chromium", "chromedriver.log").toFile()).build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-dev-shm-usage", "--window-size=1280,900", "--user-data-dir=" + profile.toAbsolutePath());
        browser = new ChromeDriver(service, options);
        // every Content-Security-Policy violation of every page is recorded, to check the pages need no exception
        browser.executeCdpCommand("Page.addScriptToEvaluateOnNewDocument", Map.of("source",
            "window.__csp = []; document.addEventListener('securitypolicyviolation', "
                + "e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));"));
        browser.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(20)).scriptTimeout(Duration.ofSeconds(20));
        wait = new WebDriverWait(browser, Duration.ofSeconds(15));
        // a page redraws its parts as the API answers: an element found a moment ago may be replaced
        wait.ignoring(StaleElementReferenceException.class);
    }

    @AfterAll
    void stop() throws IOException {
        if (browser != null) {
            browser.quit();
        }
        if (service != null) {
            service.stop();
        }
        if (member != null) {
            member.close(Duration.ofSeconds(5));
        }
        if (broker != null) {
            broker.close();
        }
    }

    /** Last, so that the broker's sampler has charted a few intervals (one point each 5 s). */
    @Test
    @Order(12)
    void theOverviewShowsTheBrokerAndTheCharts() throws IOException {
        open("");
        WebElement brokers = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("brokers")));
        assertThat(brokers.getText()).contains("PLAINTEXT://127.0.0.1:" + broker.port()).contains("controller");
        wait.until(d -> d.findElements(By.cssSelector("#charts svg.chart")).size() == 4);
        assertThat(browser.findElement(By.id("chart-messages")).getText()).contains("Messages per second");
        new WebDriverWait(browser, Duration.ofSeconds(25)).ignoring(StaleElementReferenceException.class)
            .until(d -> d.findElements(By.cssSelector("#chart-messages path.line, #chart-messages circle.dot")).size() > 0);
        assertThat(browser.findElement(By.id("logdirs")).getText()).contains(dir.getFileName().toString());
        capture("overview", () -> wait.until(d -> d.findElements(By.cssSelector("#charts svg.chart")).size() == 4));
    }

    @Test
    @Order(2)
    void theTopicListShowsTheTopicWithItsMessageCount() throws IOException {
        open("#/topics");
        WebElement row = rowOf("topics", TOPIC);
        List<WebElement> cells = row.findElements(By.tagName("td"));
        assertThat(cells.get(1).getText()).isEqualTo("2");
        assertThat(cells.get(2).getText()).isEqualTo(String.valueOf(messages));
        WebElement search = browser.findElement(By.id("topic-search"));
        search.sendKeys("no-such-topic");
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("topics-result"), "No topic matches."));
        search.clear();
        search.sendKeys("ord");
        rowOf("topics", TOPIC);
        capture("topics", () -> rowOf("topics", TOPIC));
    }

    @Test
    @Order(3)
    void theTopicPageShowsKeysAndValuesAsJsonHexAndText() throws IOException {
        open("#/topics/" + TOPIC);
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("partitions"), "Start offset"));
        WebElement json = message("json-key");
        String pretty = json.findElement(By.cssSelector(".payload.value pre")).getText();
        assertThat(json.findElement(By.cssSelector(".payload.value .enc")).getText()).startsWith("JSON");
        assertThat(pretty).contains("\n").contains("\"id\"").contains("42").contains("\"book\"").isNotEqualTo(JSON);

        WebElement binary = message("binary-key");
        assertThat(binary.findElement(By.cssSelector(".payload.value .enc")).getText()).startsWith("hex");
        String hex = binary.findElement(By.cssSelector(".payload.value pre")).getText();
        assertThat(hex.replaceAll("[^0-9A-Fa-f]", "").toLowerCase()).isEqualTo(HexFormat.of().formatHex(BINARY));
        assertThat(binary.findElement(By.cssSelector(".headers")).getText()).contains("trace-id").contains("abc123")
            .contains("content-type");

        WebElement text = message("text-3");
        assertThat(text.findElement(By.cssSelector(".payload.value pre")).getText()).isEqualTo("hello 3");

        WebElement large = message("large-key");
        assertThat(large.findElement(By.cssSelector(".payload.value pre")).getText().length()).isLessThan(LARGE.length());
        large.findElement(By.cssSelector("button.show-all")).click();
        wait.until(d -> message("large-key").findElement(By.cssSelector(".payload.value pre")).getText().length()
            == LARGE.length());

        WebElement configs = browser.findElement(By.id("configs"));
        assertThat(configs.getText()).contains("retention.ms").contains("cleanup.policy");
        capture("topic", () -> message("json-key"));
    }

    @Test
    @Order(4)
    void theGroupPagesShowTheGroupWithItsLag() throws IOException {
        open("#/groups");
        WebElement row = rowOf("groups", GROUP);
        List<WebElement> cells = row.findElements(By.tagName("td"));
        assertThat(cells.get(4).getText()).isEqualTo("1");
        assertThat(cells.get(5).getText()).isEqualTo(String.valueOf(expectedLag));
        capture("groups", () -> rowOf("groups", GROUP));

        row.findElement(By.tagName("a")).click();
        wait.until(ExpectedConditions.textToBe(By.id("total-lag"), String.valueOf(expectedLag)));
        assertThat(browser.findElement(By.id("members")).getText()).contains(TOPIC + "-0").contains(TOPIC + "-1");
        WebElement p0 = rowOf("offsets", TOPIC, "0");
        assertThat(p0.findElements(By.tagName("td")).get(2).getText()).isEqualTo("2");
        assertThat(p0.findElements(By.tagName("td")).get(4).getText()).isEqualTo("4");
        assertThat(browser.findElements(By.cssSelector("#lag-chart svg.chart"))).hasSize(1);
        capture("group", () -> wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("total-lag"))));
    }

    @Test
    @Order(5)
    void creatingATopicInTheConsoleMakesItVisibleToAnAdminClient() throws Exception {
        open("#/topics");
        wait.until(ExpectedConditions.elementToBeClickable(By.id("create-topic"))).click();
        WebElement dialog = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("dialog")));
        // Escape closes a dialog and nothing is created.
        dialog.findElement(By.name("name")).sendKeys("never-created");
        dialog.findElement(By.name("name")).sendKeys(Keys.ESCAPE);
        wait.until(d -> !isOpen());

        browser.findElement(By.id("create-topic")).click();
        dialog = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("dialog")));
        dialog.findElement(By.name("name")).sendKeys("from-the-console");
        WebElement partitions = dialog.findElement(By.name("partitions"));
        partitions.clear();
        partitions.sendKeys("3");
        dialog.findElement(By.name("configs")).sendKeys("retention.ms=3600000");
        dialog.findElement(By.name("name")).sendKeys(Keys.ENTER);
        WebElement confirm = wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#dialog .confirm-text")));
        assertThat(confirm.getText()).isEqualTo("Topic \"from-the-console\" will be created with 3 partitions and "
            + "retention.ms=3600000.");
        capture("create-topic-confirm", () -> { });
        browser.findElement(By.cssSelector("#dialog button.danger-ok")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("#dialog .ok"),
            "Topic \"from-the-console\" was created."));
        try (Admin admin = broker.admin()) {
            TopicDescription created = admin.describeTopics(List.of("from-the-console")).allTopicNames()
                .get(10, TimeUnit.SECONDS).get("from-the-console");
            assertThat(created.partitions()).hasSize(3);
            assertThat(admin.listTopics().names().get(10, TimeUnit.SECONDS)).doesNotContain("never-created");
        }
        browser.findElement(By.cssSelector("#dialog button[type=submit]")).click();
        wait.until(d -> !isOpen());
        WebElement search = browser.findElement(By.id("topic-search"));
        search.clear();
        search.sendKeys("console");
        rowOf("topics", "from-the-console");
    }

    @Test
    @Order(6)
    void resettingTheOffsetsOfAGroupWithAMemberShowsTheRefusalAndChangesNothing() throws Exception {
        open("#/groups/" + GROUP);
        wait.until(ExpectedConditions.textToBe(By.id("total-lag"), String.valueOf(expectedLag)));
        browser.findElement(By.id("reset-offsets")).click();
        WebElement dialog = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("dialog")));
        new Select(dialog.findElement(By.name("to"))).selectByValue("earliest");
        dialog.findElement(By.cssSelector("button[type=submit]")).click();
        WebElement confirm = wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#dialog .confirm-text")));
        assertThat(confirm.getText()).isEqualTo("Group \"" + GROUP + "\" will resume every partition of \"" + TOPIC
            + "\" from the earliest offset. The group must have no active member.");
        browser.findElement(By.cssSelector("#dialog button.danger-ok")).click();
        WebElement error = wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#dialog .error")));
        assertThat(error.getText()).startsWith("NON_EMPTY_GROUP: ").contains(GROUP);
        shot("group-reset-refused-light");
        browser.switchTo().activeElement().sendKeys(Keys.ESCAPE);
        wait.until(d -> !isOpen());
        try (Admin admin = broker.admin()) {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(GROUP)
                .partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
            assertThat(committed.get(new TopicPartition(TOPIC, 0)).offset()).isEqualTo(2);
            assertThat(committed.get(new TopicPartition(TOPIC, 1)).offset()).isEqualTo(1);
        }
    }

    @Test
    @Order(7)
    void aTestMessageProducedInTheConsoleIsReadByAConsumer() throws Exception {
        open("#/topics/" + TOPIC);
        message("json-key");
        browser.findElement(By.id("produce")).click();
        WebElement dialog = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("dialog")));
        new Select(dialog.findElement(By.name("partition"))).selectByValue("1");
        dialog.findElement(By.name("key")).sendKeys("from-the-console");
        dialog.findElement(By.name("value")).sendKeys("{\"hello\":\"console\"}");
        dialog.findElement(By.name("headers")).sendKeys("source=console");
        dialog.findElement(By.cssSelector("button[type=submit]")).click();
        WebElement confirm = wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#dialog .confirm-text")));
        assertThat(confirm.getText()).isEqualTo("One message will be appended to \"" + TOPIC + "\" partition 1: key "
            + "\"from-the-console\", a value of 19 bytes, 1 header. Consumers of the topic will receive it.");
        browser.findElement(By.cssSelector("#dialog button.danger-ok")).click();
        WebElement done = wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#dialog .ok")));
        java.util.regex.Matcher where = java.util.regex.Pattern.compile("Written to partition (\\d+) at offset (\\d+)\\.")
            .matcher(done.getText());
        assertThat(where.matches()).as(done.getText()).isTrue();
        assertThat(where.group(1)).isEqualTo("1");
        long offset = Long.parseLong(where.group(2));
        browser.findElement(By.cssSelector("#dialog button[type=submit]")).click();
        wait.until(d -> !isOpen());
        try (KafkaConsumer<byte[], byte[]> consumer = broker.bytesConsumer(Map.of())) {
            TopicPartition tp = new TopicPartition(TOPIC, 1);
            consumer.assign(List.of(tp));
            consumer.seek(tp, offset);
            List<org.apache.kafka.clients.consumer.ConsumerRecord<byte[], byte[]>> got = new java.util.ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
            while (got.isEmpty() && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(got::add);
            }
            assertThat(got).isNotEmpty();
            assertThat(got.get(0).offset()).isEqualTo(offset);
            assertThat(new String(got.get(0).key(), StandardCharsets.UTF_8)).isEqualTo("from-the-console");
            assertThat(new String(got.get(0).value(), StandardCharsets.UTF_8)).isEqualTo("{\"hello\":\"console\"}");
            assertThat(new String(got.get(0).headers().lastHeader("source").value(), StandardCharsets.UTF_8))
                .isEqualTo("console");
        }
        messages++;
        expectedLag++;
        message("from-the-console");
    }

    @Test
    @Order(10)
    void anApiErrorIsShownWithTheApisMessage() {
        open("#/topics/no-such-topic");
        WebElement error = wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("main .error")));
        assertThat(error.getText()).contains("UNKNOWN_TOPIC_OR_PARTITION").contains("no-such-topic");
    }

    @Test
    @Order(11)
    void darkModeAndAPhoneWidthRenderWithoutOverflow() {
        open("#/topics/" + TOPIC);
        message("json-key");
        dark(true);
        try {
            assertThat(luminance(browser.findElement(By.tagName("body")).getCssValue("background-color"))).isLessThan(0.2);
        } finally {
            dark(false);
        }
        assertThat(luminance(browser.findElement(By.tagName("body")).getCssValue("background-color"))).isGreaterThan(0.8);
        phone(true);
        try {
            for (String page : List.of("", "#/topics", "#/topics/" + TOPIC, "#/groups", "#/groups/" + GROUP)) {
                open(page);
                wait.until(ExpectedConditions.invisibilityOfElementWithText(By.cssSelector("main p.muted"), "Loading…"));
                wait.until(d -> !d.findElements(By.cssSelector("main table, main .message, main svg")).isEmpty());
                long scrollWidth = (Long) js("return document.documentElement.scrollWidth;");
                assertThat(scrollWidth).as("page %s at 375 px", page).isLessThanOrEqualTo(375);
            }
        } finally {
            phone(false);
        }
    }

    @Test
    @Order(13)
    void aConfigChangedInTheConsoleIsSeenByAnAdminClient() throws Exception {
        open("#/topics/from-the-console");
        WebElement row = rowOf("configs", "retention.ms");
        assertThat(row.getText()).contains("3600000").contains("DYNAMIC_TOPIC_CONFIG");
        row.findElement(By.cssSelector("button")).click();
        WebElement value = wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#dialog input[name=value]")));
        value.clear();
        value.sendKeys("7200000");
        value.sendKeys(Keys.ENTER);
        WebElement confirm = wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#dialog .confirm-text")));
        assertThat(confirm.getText()).isEqualTo("retention.ms of topic \"from-the-console\" will be set to \"7200000\" "
            + "(now \"3600000\").");
        browser.findElement(By.cssSelector("#dialog button.danger-ok")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("#dialog .ok"),
            "retention.ms is now \"7200000\"."));
        try (Admin admin = broker.admin()) {
            org.apache.kafka.common.config.ConfigResource topic = new org.apache.kafka.common.config.ConfigResource(
                org.apache.kafka.common.config.ConfigResource.Type.TOPIC, "from-the-console");
            assertThat(admin.describeConfigs(List.of(topic)).all().get(10, TimeUnit.SECONDS).get(topic)
                .get("retention.ms").value()).isEqualTo("7200000");
        }
        browser.switchTo().activeElement().sendKeys(Keys.ESCAPE);
        wait.until(d -> !isOpen());
    }

    @Test
    @Order(14)
    void recordsDeletedInTheConsoleAreGoneForAnAdminClient() throws Exception {
        open("#/topics/" + TOPIC);
        message("json-key");
        browser.findElement(By.id("delete-records")).click();
        WebElement dialog = wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("dialog")));
        new Select(dialog.findElement(By.name("partition"))).selectByValue("0");
        dialog.findElement(By.name("beforeOffset")).sendKeys("2");
        dialog.findElement(By.cssSelector("button[type=submit]")).click();
        WebElement confirm = wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector("#dialog .confirm-text")));
        assertThat(confirm.getText()).isEqualTo("Every record of \"" + TOPIC + "\" partition 0 before offset 2 will be "
            + "deleted (about 2 records; the partition now starts at 0). This cannot be undone.");
        browser.findElement(By.cssSelector("#dialog button.danger-ok")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("#dialog .ok"),
            "Partition 0 now starts at offset 2."));
        try (Admin admin = broker.admin()) {
            TopicPartition p0 = new TopicPartition(TOPIC, 0);
            assertThat(admin.listOffsets(Map.of(p0, org.apache.kafka.clients.admin.OffsetSpec.earliest())).all()
                .get(10, TimeUnit.SECONDS).get(p0).offset()).isEqualTo(2);
        }
        browser.switchTo().activeElement().sendKeys(Keys.ESCAPE);
        wait.until(d -> !isOpen());
    }

    @Test
    @Order(9)
    void theKeyboardReachesTheNavigationWithAVisibleFocus() {
        // a fresh load: Tab starts at the top of the document (after a navigation inside the console, focus is
        // moved to the page's content instead, so a keyboard user goes on there)
        open("#/topics");
        browser.navigate().refresh();
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("topics")));
        org.openqa.selenium.interactions.Actions keys = new org.openqa.selenium.interactions.Actions(browser);
        keys.sendKeys(Keys.TAB).perform();
        assertThat(browser.switchTo().activeElement().getText()).isEqualTo("Skip to content");
        keys.sendKeys(Keys.TAB).sendKeys(Keys.TAB).perform();
        WebElement overview = browser.switchTo().activeElement();
        assertThat(overview.getText()).isEqualTo("Overview");
        assertThat(overview.getCssValue("outline-style")).isEqualTo("solid");
        overview.sendKeys(Keys.ENTER);
        wait.until(d -> "#/".equals(js("return location.hash;")));
        wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("brokers")));
    }

    // ---- helpers ----

    /**
     * Last (it turns on the browser's request interception): with the acl authorizer the pages sign in through the
     * browser's own HTTP Basic prompt, answered through the DevTools protocol (Selenium's HasAuthentication). A wrong
     * password shows the API's refusal and no data; the right one shows the topics the user may describe.
     */
    @Test
    @Order(20)
    void withAnAuthorizerTheBrowserSignsInThroughItsOwnPrompt() throws Exception {
        Path securedDir = Files.createTempDirectory("console-it-secured");
        try (TestBroker secured = TestBroker.builder(securedDir).config("super.users", "User:ANONYMOUS")
                .acl("allow User:alice DESCRIBE topic:secured\nallow User:alice DESCRIBE_CONFIGS topic:secured\n")
                .start();
             Admin admin = secured.admin()) {
            admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion("alice",
                new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 4096), "alice-secret"))).all()
                .get(20, TimeUnit.SECONDS);
            secured.createTopic("secured", 1);
            secured.createTopic("hidden", 1);
            int port = secured.broker.adminPort();
            HasAuthentication prompt = (HasAuthentication) browser;
            // A wrong password a few times, then the prompt is cancelled (as a user closing it).
            AtomicInteger wrong = new AtomicInteger();
            prompt.register(uri -> uri.getPort() == port && wrong.getAndIncrement() < 3,
                () -> new UsernameAndPassword("alice", "wrong-secret"));
            browser.get("http://127.0.0.1:" + port + "/console/#/topics");
            wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("topics-result"),
                "SASL_AUTHENTICATION_FAILED"));
            assertThat(browser.findElements(By.cssSelector("#topics tbody tr"))).isEmpty();
            assertThat(wrong.get()).as("the prompt was answered").isGreaterThan(0);
            shot("signin-wrong-password");

            prompt.register(uri -> uri.getPort() == port, () -> new UsernameAndPassword("alice", "alice-secret"));
            browser.navigate().refresh();
            rowOf("topics", "secured");
            assertThat(browser.findElement(By.id("topics")).getText()).doesNotContain("hidden");
            shot("signin-topics");
        }
    }

    private void open(String hash) {
        browser.get(base + hash);
        if (!hash.isEmpty()) {
            // the same document with another hash only fires hashchange: make sure the page is the one asked for
            wait.until(d -> ((JavascriptExecutor) d).executeScript("return location.hash").equals(hash));
        }
    }

    private boolean isOpen() {
        return Boolean.TRUE.equals(js("return document.getElementById('dialog').open;"));
    }

    private Object js(String script) {
        return browser.executeScript(script);
    }

    /** The row of table {@code id} whose first cells start with {@code firstCells}. */
    private WebElement rowOf(String id, String... firstCells) {
        return wait.until(d -> {
            for (WebElement row : d.findElements(By.cssSelector("#" + id + " tbody tr"))) {
                List<WebElement> cells = row.findElements(By.tagName("td"));
                boolean match = cells.size() >= firstCells.length;
                for (int i = 0; match && i < firstCells.length; i++) {
                    String text = cells.get(i).getText().trim();
                    match = text.equals(firstCells[i]) || text.startsWith(firstCells[i] + "\n")
                        || text.startsWith(firstCells[i] + " ");
                }
                if (match) {
                    return row;
                }
            }
            return null;
        });
    }

    /** The message card whose key reads {@code key}. */
    private WebElement message(String key) {
        return wait.until(d -> {
            for (WebElement card : d.findElements(By.cssSelector("#messages article.message"))) {
                if (card.findElement(By.cssSelector(".payload.key")).getText().contains(key)) {
                    return card;
                }
            }
            return null;
        });
    }

    private void dark(boolean on) {
        browser.executeCdpCommand("Emulation.setEmulatedMedia", Map.of("features",
            List.of(Map.of("name", "prefers-color-scheme", "value", on ? "dark" : "light"))));
    }

    private void phone(boolean on) {
        if (on) {
            browser.executeCdpCommand("Emulation.setDeviceMetricsOverride", Map.of("width", 375, "height", 812,
                "deviceScaleFactor", 1, "mobile", true));
        } else {
            browser.executeCdpCommand("Emulation.clearDeviceMetricsOverride", Map.of());
        }
    }

    /** Writes {@code name}-light.png, -dark.png and -phone.png (full page), waiting for {@code ready} after each switch. */
    private void capture(String name, Runnable ready) throws IOException {
        ready.run();
        assertThat(js("return window.__csp;")).as("CSP violations on %s", name).isEqualTo(List.of());
        assertThat(js("return performance.getEntriesByType('resource').map(e => e.name)"
            + ".filter(n => !n.startsWith(location.origin + '/'));")).as("requests elsewhere than the broker").isEqualTo(List.of());
        shot(name + "-light");
        dark(true);
        try {
            ready.run();
            shot(name + "-dark");
        } finally {
            dark(false);
        }
        phone(true);
        try {
            ready.run();
            shot(name + "-phone");
        } finally {
            phone(false);
        }
    }

    private void shot(String name) throws IOException {
        js("window.scrollTo(0, 0);");
        long width = (Long) js("return Math.max(document.documentElement.clientWidth, 1);");
        long height = Math.min(6000L, (Long) js("return document.documentElement.scrollHeight;"));
        Map<String, Object> png = browser.executeCdpCommand("Page.captureScreenshot", Map.of("format", "png",
            "captureBeyondViewport", true,
            "clip", Map.of("x", 0, "y", 0, "width", width, "height", height, "scale", 1)));
        Files.write(SCREENSHOTS.resolve(name + ".png"), Base64.getDecoder().decode((String) png.get("data")));
    }

    private static double luminance(String cssColor) {
        String[] parts = cssColor.replaceAll("[^0-9.,]", "").split(",");
        double r = Double.parseDouble(parts[0]);
        double g = Double.parseDouble(parts[1]);
        double b = Double.parseDouble(parts[2]);
        return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
    }
}
