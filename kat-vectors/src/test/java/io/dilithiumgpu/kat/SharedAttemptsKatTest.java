package io.dilithiumgpu.kat;

import io.dilithiumgpu.backend.Backend;
import io.dilithiumgpu.backend.BatchRecords;
import io.dilithiumgpu.backend.HostBatches;
import io.dilithiumgpu.backend.Operation;
import io.dilithiumgpu.backend.TaskStatus;
import io.dilithiumgpu.backend.cpu.CpuBackend;
import io.dilithiumgpu.core.ParameterSet;
import io.dilithiumgpu.core.Scheme;
import org.junit.jupiter.api.AfterAll;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every known-answer suite with each signature's rejection loop shared with helper threads
 * ({@code Scheme.sign} with helpers, as a direct JCA signature takes them while cores are idle):
 * the signatures must be those of the loop on one thread, bit for bit. Key generation and
 * verification run on the CPU backend.
 */
class SharedAttemptsKatTest extends BackendKatTest {
    private long helped;

    @Override
    protected Backend createBackend() {
        helped = Scheme.helperAttemptCount();
        return new SharedAttemptsBackend();
    }

    @AfterAll
    void helpersRanAttempts() {
        assertTrue(Scheme.helperAttemptCount() > helped, "no helper thread ran an attempt");
    }

    /** Signs each task on the calling thread with three helpers; the rest on one CPU thread. */
    private static final class SharedAttemptsBackend implements Backend {
        private final CpuBackend cpu = new CpuBackend(1);

        @Override
        public String name() {
            return "shared attempts";
        }

        @Override
        public int preferredBatchSize(ParameterSet params, Operation op) {
            return cpu.preferredBatchSize(params, op);
        }

        @Override
        public void run(BatchRecords r) {
            if (r.inHost()) {
                HostBatches.run(this, r);
                return;
            }
            if (r.op() != Operation.SIGN) {
                cpu.run(r);
                return;
            }
            ParameterSet p = r.params();
            byte[] sks = r.array(0);
            byte[] mus = r.array(1);
            byte[] rnds = r.array(2);
            byte[] sigs = r.array(3);
            int skBytes = r.oneKey() ? 0 : p.privateKeyBytes();
            for (int i = 0; i < r.count(); i++) {
                boolean signed = Scheme.sign(p, sks, i * skBytes, null, mus, i * ParameterSet.MU_BYTES, rnds,
                        i * p.rndBytes(), sigs, i * p.signatureBytes(), 3);
                r.status()[i] = signed ? TaskStatus.OK : TaskStatus.INVALID_KEY;
            }
        }

        @Override
        public void close() {
            cpu.close();
        }
    }
}
