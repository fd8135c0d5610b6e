package io.kaas.wire.codegen;

/**
 * An inclusive range of protocol versions as written in the schemas: {@code "3+"}, {@code "0-12"},
 * {@code "5"} or {@code "none"}.
 */
public record Versions(short lowest, short highest) {

    public static final Versions NONE = new Versions((short) 0, (short) -1);
    public static final Versions ALL = new Versions((short) 0, Short.MAX_VALUE);

    public static Versions parse(String text, Versions defaultValue) {
        if (text == null) {
            return defaultValue;
        }
        String s = text.trim();
        if (s.equals("none")) {
            return NONE;
        }
        if (s.endsWith("+")) {
            return new Versions(Short.parseShort(s.substring(0, s.length() - 1)), Short.MAX_VALUE);
        }
        int dash = s.indexOf('-');
        if (dash > 0) {
            return new Versions(Short.parseShort(s.substring(0, dash)), Short.parseShort(s.substring(dash + 1)));
        }
        short v = Short.parseShort(s);
        return new Versions(v, v);
    }

    public boolean isEmpty() {
        return highest < lowest;
    }

    public boolean contains(short version) {
        return version >= lowest && version <= highest;
    }

    public Versions intersect(Versions other) {
        short lo = (short) Math.max(lowest, other.lowest);
        short hi = (short) Math.min(highest, other.highest);
        return hi < lo ? NONE : new Versions(lo, hi);
    }

    /** A Java boolean expression testing the variable {@code version} against this range. */
    public String condition(String variable) {
        if (isEmpty()) {
            return "false";
        }
        boolean open = highest == Short.MAX_VALUE;
        if (lowest == 0 && open) {
            return "true";
        }
        if (open) {
            return "(" + variable + " >= " + lowest + ")";
        }
        if (lowest == 0) {
            return "(" + variable + " <= " + highest + ")";
        }
        if (lowest == highest) {
            return "(" + variable + " == " + lowest + ")";
        }
        return "(" + variable + " >= " + lowest + " && " + variable + " <= " + highest + ")";
    }

    @Override
    public String toString() {
        if (isEmpty()) {
            return "none";
        }
        return highest == Short.MAX_VALUE ? lowest + "+" : lowest + "-" + highest;
    }
}
