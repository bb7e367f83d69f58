package io.dilithiumgpu.kat;

import io.dilithiumgpu.backend.TaskStatus;

import java.util.ArrayList;
import java.util.List;

/**
 * What happened to one vector: whether the provider refused it (and why), and every way its
 * produced values differ from the vector's. Runners fill one in per vector and hand it to
 * {@link SuiteReport.Builder#add(CaseResult)}, which turns it into a pass, a failure, or an
 * acceptable outcome.
 */
final class CaseResult {
    final String id;
    final Expected expected;
    private String refusal;
    private final List<String> mismatches = new ArrayList<>();

    CaseResult(String id, Expected expected) {
        this.id = id;
        this.expected = expected;
    }

    /** The provider said no: JCA check, invalid key status, or verification false. First reason wins. */
    void refuse(String why) {
        if (refusal == null) {
            refusal = why;
        }
    }

    /** A produced value that differs from the vector's. */
    void mismatch(String what) {
        mismatches.add(what);
    }

    /**
     * Records a verification status: REJECTED is the provider saying no; anything but OK and
     * REJECTED is a backend fault.
     */
    void verifyStatus(byte status) {
        if (status == TaskStatus.REJECTED) {
            refuse("signature rejected");
        } else if (status != TaskStatus.OK) {
            mismatch("verify status " + Batches.describe(status));
        }
    }

    /**
     * Records a signing status and reports whether a signature was produced: INVALID_KEY is the
     * provider saying no; anything but OK and INVALID_KEY is a backend fault.
     */
    boolean signStatus(byte status) {
        if (status == TaskStatus.INVALID_KEY) {
            refuse("private key does not decode (INVALID_KEY)");
        } else if (status != TaskStatus.OK) {
            mismatch("sign status " + Batches.describe(status));
        }
        return status == TaskStatus.OK;
    }

    boolean refused() {
        return refusal != null;
    }

    String refusal() {
        return refusal;
    }

    List<String> mismatches() {
        return mismatches;
    }
}
