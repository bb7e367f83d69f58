package io.dilithiumgpu.route;

import java.security.ProviderException;
import java.util.Locale;

/**
 * The system property {@value #PROPERTY}: {@code auto} (the default) lets the {@link Router} choose
 * each call's route from measured costs; {@code direct}, {@code batch} or {@code jdk} pins every call
 * to that route, for experiments and tests. {@code jdk} takes the JDK's ML-DSA for the calls it
 * covers exactly and the caller's thread for the rest. Read on every call, so it can be set at run
 * time.
 */
public enum RouteSetting {
    AUTO, DIRECT, BATCH, JDK;

    /** The system property that pins a route. */
    public static final String PROPERTY = "dilithiumgpu.route";

    /** The last value read and its meaning, so that a call parses the property only when it changed. */
    private static volatile Parsed last = new Parsed(null, AUTO);

    private static final class Parsed {
        final String text;
        final RouteSetting setting;

        Parsed(String text, RouteSetting setting) {
            this.text = text;
            this.setting = setting;
        }
    }

    /**
     * The setting now in force.
     *
     * @throws ProviderException when the property holds another value
     */
    public static RouteSetting current() {
        String text = System.getProperty(PROPERTY);
        Parsed p = last;
        if (text == null ? p.text == null : text.equals(p.text)) {
            return p.setting;
        }
        RouteSetting s = parse(text);
        last = new Parsed(text, s);
        return s;
    }

    static RouteSetting parse(String text) {
        if (text == null || text.isBlank()) {
            return AUTO;
        }
        try {
            return valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new ProviderException("invalid dilithium-gpu configuration: " + PROPERTY + "=" + text
                    + "; expected auto, direct, batch or jdk");
        }
    }
}
