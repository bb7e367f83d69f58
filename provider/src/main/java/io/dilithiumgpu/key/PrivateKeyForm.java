package io.dilithiumgpu.key;

import java.security.ProviderException;
import java.util.Locale;

/**
 * The three forms of an ML-DSA private key inside PKCS#8 (RFC 9881 §6, {@code ML-DSA-PrivateKey}):
 * <pre>
 * ML-DSA-PrivateKey ::= CHOICE {
 *   seed        [0] IMPLICIT OCTET STRING (SIZE (32)),
 *   expandedKey OCTET STRING,
 *   both        SEQUENCE { seed OCTET STRING (SIZE (32)), expandedKey OCTET STRING } }
 * </pre>
 * Round 3.1 keys have a single form, the expanded key bytes (see {@code docs/encodings.md}).
 *
 * <p>Which form {@link DilithiumPrivateKey#getEncoded()} writes is chosen, in this order, by the
 * system property {@value #PROPERTY} ({@code seed}, {@code expanded} or {@code both}, read on every
 * call); else by the form the key was decoded from; else {@link #SEED}. A form that needs the seed
 * falls back to {@link #EXPANDED} for a key whose seed is unknown.
 */
public enum PrivateKeyForm {
    /** Only the 32-byte seed ξ: the smallest form, and the one RFC 9881 recommends. */
    SEED,
    /** Only the expanded private key (FIPS 204 Algorithm 24, skEncode). */
    EXPANDED,
    /** The seed and the expanded key; a decoder checks that the one regenerates the other. */
    BOTH;

    /** System property that overrides the form of every encoded ML-DSA private key. */
    public static final String PROPERTY = "dilithiumgpu.pkcs8.format";

    /**
     * The form named by {@value #PROPERTY}, or {@code null} when the property is not set.
     *
     * @throws ProviderException when the property has a value other than seed, expanded or both
     */
    public static PrivateKeyForm configured() {
        String value = System.getProperty(PROPERTY);
        if (value == null) {
            return null;
        }
        switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "seed": return SEED;
            case "expanded": return EXPANDED;
            case "both": return BOTH;
            default:
                throw new ProviderException("system property " + PROPERTY + " is \"" + value
                        + "\"; expected seed, expanded or both");
        }
    }
}
