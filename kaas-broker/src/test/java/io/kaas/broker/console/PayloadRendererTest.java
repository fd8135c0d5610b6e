package io.kaas.broker.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PayloadRendererTest {

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void nullIsNull() {
        assertThat(PayloadRenderer.render(null, 10)).isNull();
    }

    @Test
    void jsonObjectsArePrettyPrinted() {
        Map<String, Object> p = PayloadRenderer.render(utf8("{\"a\":1,\"b\":[true]}"), 4096);
        assertThat(p).containsEntry("encoding", "json").containsEntry("sizeBytes", 18).containsEntry("truncated", false);
        assertThat((String) p.get("text")).isEqualTo("{\n  \"a\" : 1,\n  \"b\" : [ true ]\n}");
    }

    @Test
    void plainTextAndNumbersAreText() {
        assertThat(PayloadRenderer.render(utf8("héllo\tworld\n"), 4096)).containsEntry("encoding", "text")
            .containsEntry("text", "héllo\tworld\n");
        assertThat(PayloadRenderer.render(utf8("42"), 4096)).containsEntry("encoding", "text");
        assertThat(PayloadRenderer.render(utf8("{not json"), 4096)).containsEntry("encoding", "text");
    }

    @Test
    void binaryAndControlCharactersAreHex() {
        assertThat(PayloadRenderer.render(new byte[] {(byte) 0xc3, 0x28}, 4096)).containsEntry("encoding", "hex")
            .containsEntry("text", "c328");
        assertThat(PayloadRenderer.render(new byte[] {'a', 0, 'b'}, 4096)).containsEntry("encoding", "hex")
            .containsEntry("text", "610062");
    }

    @Test
    void truncationCutsBytesNotCharacters() {
        Map<String, Object> p = PayloadRenderer.render(utf8("ééé"), 3);
        assertThat(p).containsEntry("encoding", "text").containsEntry("text", "é").containsEntry("sizeBytes", 6)
            .containsEntry("truncated", true);
        assertThat(PayloadRenderer.render(new byte[] {1, 2, 3, 4}, 2)).containsEntry("text", "0102")
            .containsEntry("truncated", true);
        Map<String, Object> json = PayloadRenderer.render(utf8("{\"long\":\"" + "x".repeat(50) + "\"}"), 10);
        assertThat(json).containsEntry("encoding", "json").containsEntry("text", "{\"long\":\"x");
    }
}
