package io.dilithiumgpu.kat;

import io.dilithiumgpu.backend.Backend;
import io.dilithiumgpu.backend.BatchRecords;
import io.dilithiumgpu.backend.HostBatches;
import io.dilithiumgpu.backend.OneKeyRecords;
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
    public void run(BatchRecords r) {
        if (r.inHost()) {
            HostBatches.run(this, r);
            return;
        }
        if (r.oneKey()) {
            OneKeyRecords.runExpanded(this, r);  // task by task below: a key record per task
            return;
        }
        ParameterSet p = r.params();
        int n = r.count();
        byte[] status = r.status();
        byte[] out = status.clone();
        switch (r.op()) {
            case KEYGEN -> {
                byte[] pks = r.array(1);
                delegate.run(BatchRecords.keyGen(p, n, r.array(0), pks, r.array(2), out));
                if (fault == Fault.PUBLIC_KEY_ALTERED) {
                    for (int i = 1; i <= n; i++) {
                        pks[i * p.publicKeyBytes() - 1] ^= 1;
                    }
                }
            }
            case SIGN -> {
                byte[] sigs = r.array(3);
                delegate.run(BatchRecords.sign(p, n, r.array(0), r.array(1), r.array(2), sigs, out));
                for (int i = 0; i < n; i++) {
                    if (fault == Fault.SIGNATURE_ALTERED && out[i] == TaskStatus.OK) {
                        sigs[(i + 1) * p.signatureBytes() - 1] ^= 1;
                    }
                    if (fault == Fault.SIGN_IGNORES_INVALID_KEY && out[i] == TaskStatus.INVALID_KEY) {
                        out[i] = TaskStatus.OK;
                    }
                }
            }
            case VERIFY -> {
                delegate.run(BatchRecords.verify(p, n, r.array(0), r.array(1), r.array(2), out));
                if (fault == Fault.VERIFY_ACCEPTS_ALL) {
                    Arrays.fill(out, TaskStatus.OK);
                }
            }
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
