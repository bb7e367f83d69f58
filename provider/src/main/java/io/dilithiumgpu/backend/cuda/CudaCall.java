package io.dilithiumgpu.backend.cuda;

import io.dilithiumgpu.backend.BackendException;
import jcuda.CudaException;
import jcuda.driver.CUresult;

import java.util.function.IntSupplier;

/**
 * Runs one CUDA driver call and turns its failure into a {@link BackendException} that names the
 * CUresult and the operation, e.g. {@code CUDA_ERROR_ILLEGAL_ADDRESS in cuStreamSynchronize
 * (sign_mldsa65, device 0, stream 2)}. The result code is checked here as well as by JCuda's
 * exceptions, so the check holds even if other code in the process turned those off.
 */
final class CudaCall {
    private CudaCall() {}

    /**
     * @param operation the driver function and what it was doing, for the message
     * @param call      the driver call, returning its CUresult
     * @throws BackendException when the call fails
     */
    static void check(String operation, IntSupplier call) {
        int result;
        try {
            result = call.getAsInt();
        } catch (CudaException e) {
            throw new BackendException(message(e.getMessage(), operation), e);
        }
        if (result != CUresult.CUDA_SUCCESS) {
            throw new BackendException(message(CUresult.stringFor(result), operation));
        }
    }

    private static String message(String cuResult, String operation) {
        return "CUDA error " + cuResult + " in " + operation;
    }
}
