package io.kaas.wire.codegen;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Entry point: {@code CodeGenerator <schema dir> <output source dir>}. Generates one class per request, response
 * and header schema into {@code io/kaas/wire/message}, plus {@code ApiMessageType}. Other schema types
 * (data, metadata records) are skipped.
 */
public final class CodeGenerator {

    private CodeGenerator() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: CodeGenerator <schema dir> <output source dir>");
            System.exit(2);
        }
        int count = generate(Path.of(args[0]), Path.of(args[1]));
        System.out.println("kaas-wire-codegen: generated " + count + " message classes into " + args[1]);
    }

    /** Reads every supported schema of {@code schemaDir}. */
    public static List<MessageSpec> load(Path schemaDir) throws IOException {
        List<MessageSpec> specs = new ArrayList<>();
        try (Stream<Path> files = Files.list(schemaDir)) {
            for (Path file : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                MessageSpec spec = SchemaParser.parse(file);
                if (spec.isApi() || spec.type().equals("header")) {
                    specs.add(spec);
                }
            }
        }
        if (specs.isEmpty()) {
            throw new IOException("no request/response/header schemas found in " + schemaDir);
        }
        return specs;
    }

    public static int generate(Path schemaDir, Path outputDir) throws IOException {
        Path packageDir = outputDir.resolve(MessageGenerator.PACKAGE.replace('.', '/'));
        Files.createDirectories(packageDir);
        Map<Integer, MessageSpec> requests = new TreeMap<>();
        Map<Integer, MessageSpec> responses = new TreeMap<>();
        List<MessageSpec> specs = load(schemaDir);
        for (MessageSpec spec : specs) {
            writeIfChanged(packageDir.resolve(spec.className() + ".java"), new MessageGenerator(spec).generate());
            if (spec.type().equals("request")) {
                requests.put(spec.apiKey(), spec);
            } else if (spec.type().equals("response")) {
                responses.put(spec.apiKey(), spec);
            }
        }
        writeIfChanged(packageDir.resolve("ApiMessageType.java"),
            RegistryGenerator.generate(RegistryGenerator.pair(requests, responses)));
        return specs.size();
    }

    /** Leaves unchanged files untouched so incremental compilation stays incremental. */
    private static void writeIfChanged(Path file, String content) throws IOException {
        if (Files.exists(file) && Files.readString(file, StandardCharsets.UTF_8).equals(content)) {
            return;
        }
        Files.writeString(file, content, StandardCharsets.UTF_8);
    }
}
