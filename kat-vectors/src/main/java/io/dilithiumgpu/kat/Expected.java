package io.dilithiumgpu.kat;

/**
 * A vector's verdict: the operation succeeds (a key pair or signature is produced, or the
 * signature verifies), is refused, or may go either way.
 */
public enum Expected {
    /** Keys or signature produced and equal to the vector's; or the signature verifies. */
    VALID,
    /** The provider refuses: rejected by the JCA checks, an invalid key, or a false verify. */
    INVALID,
    /**
     * Wycheproof's {@code acceptable}: a conforming implementation may do either. Counted apart
     * from passes and failures, never as a failure; the outcome is recorded in the report.
     */
    ACCEPTABLE;

    /** Wycheproof's {@code result} field: {@code valid}, {@code invalid} or {@code acceptable}. */
    public static Expected ofWycheproof(String result) {
        switch (result) {
            case "valid": return VALID;
            case "invalid": return INVALID;
            case "acceptable": return ACCEPTABLE;
            default: throw new KatDataException("unknown Wycheproof result '" + result + "'");
        }
    }
}
