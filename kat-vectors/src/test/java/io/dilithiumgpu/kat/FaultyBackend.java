package io.dilithiumgpu.kat;

import io.dilithiumgpu.backend.Backend;
import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.backend.TaskStatus;
import io.dilithiumgpu.core.ParameterSet;

import java.util.Arrays;

/** A correct backend with one deliberate fault, to show that the runners catch it. */
final class FaultyBackend implements Backend {

    enum Fault {
        /** Verification says OK to everything. */
        VERIFY_ACCEPTS_ALL,
        /** Every produced signature has its last byte changed. */
        SIGNATURE_ALTERED,
        /** Every generated public key has its last byte changed. */
        PUBLIC_KEY_ALTERED,
        /** Signing never reports INVALID_KEY: out-of-range keys are signed anyway. */
        SIGN_IGNORES_INVALID_KEY,
        /** No status byte is written. */
        NO_STATUS
    }

    private final Backend delegate;
    private final Fault fault;

    FaultyBackend(Backend delegate, Fault fault) {
        this.delegate = delegate;
        this.fault = fault;
    }

    @Override
    public String name() {
        return "faulty(" + fault + ")";
    }

    @Override
    public int preferredBatchSize(ParameterSet params, Operation op) {
        return delegate.preferredBatchSize(params, op);
    }

    @Override
    public void keyGen(ParameterSet p, int n, byte[] seeds, byte[] pks, byte[] sks, byte[] status) {
        byte[] out = status.clone();
        delegate.keyGen(p, n, seeds, pks, sks, out);
        if (fault == Fault.PUBLIC_KEY_ALTERED) {
            for (int i = 1; i <= n; i++) {
                pks[i * p.publicKeyBytes() - 1] ^= 1;
            }
        }
        publish(out, status);
    }

    @Override
    public void sign(ParameterSet p, int n, byte[] sks, byte[] mus, byte[] rnds, byte[] sigs, byte[] status) {
        byte[] out = status.clone();
        delegate.sign(p, n, sks, mus, rnds, sigs, out);
        for (int i = 0; i < n; i++) {
            if (fault == Fault.SIGNATURE_ALTERED && out[i] == TaskStatus.OK) {
                sigs[(i + 1) * p.signatureBytes() - 1] ^= 1;
            }
            if (fault == Fault.SIGN_IGNORES_INVALID_KEY && out[i] == TaskStatus.INVALID_KEY) {
                out[i] = TaskStatus.OK;
            }
        }
        publish(out, status);
    }

    @Override
    public void verify(ParameterSet p, int n, byte[] pks, byte[] mus, byte[] sigs, byte[] status) {
        byte[] out = status.clone();
        delegate.verify(p, n, pks, mus, sigs, out);
        if (fault == Fault.VERIFY_ACCEPTS_ALL) {
            Arrays.fill(out, TaskStatus.OK);
        }
        publish(out, status);
    }

    private void publish(byte[] out, byte[] status) {
        if (fault != Fault.NO_STATUS) {
            System.arraycopy(out, 0, status, 0, status.length);
        }
    }

    @Override
    public void close() {
        delegate.close();
    }
}
