package io.kaas.wire.codegen;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One schema file of {@code common/message}. */
public record MessageSpec(String name, String type, int apiKey, Versions validVersions, Versions flexibleVersions,
                          boolean latestVersionUnstable, List<String> listeners, List<FieldSpec> fields,
                          List<StructSpec> commonStructs) {

    public String className() {
        return name + "Data";
    }

    public boolean isApi() {
        return type.equals("request") || type.equals("response");
    }

    /** Every struct of this message, inline and common, keyed by type name, in declaration order. */
    public Map<String, StructSpec> structs() {
        Map<String, StructSpec> out = new LinkedHashMap<>();
        for (StructSpec common : commonStructs) {
            out.put(common.name(), new StructSpec(common.name(), common.versions().intersect(validVersions), common.fields()));
            collect(common.fields(), validVersions, out);
        }
        collect(fields, validVersions, out);
        return out;
    }

    private static void collect(List<FieldSpec> fields, Versions within, Map<String, StructSpec> out) {
        for (FieldSpec f : fields) {
            if (f.fields() == null) {
                continue;
            }
            Versions v = f.versions().intersect(within);
            StructSpec existing = out.get(f.elementType());
            if (existing == null) {
                out.put(f.elementType(), new StructSpec(f.elementType(), v, f.fields()));
            } else if (existing.fields() != f.fields() && !existing.fields().equals(f.fields())) {
                throw new IllegalStateException("struct " + f.elementType() + " is defined twice differently");
            }
            collect(f.fields(), v, out);
        }
    }

    public List<FieldSpec> allFieldsFlat() {
        List<FieldSpec> out = new ArrayList<>();
        structs().values().forEach(s -> out.addAll(s.fields()));
        out.addAll(fields);
        return out;
    }
}
