package io.dilithiumgpu.backend;

/**
 * Told of each task of a backend call as it ends, while the call still runs: the CUDA backend's
 * signing kernels publish every task's status after its signature, so a batch of single calls can
 * return each caller its signature when its own rejection loop ends rather than when the batch's
 * slowest one does.
 *
 * <p>Contract for backends: {@link #finished} is called at most once per task, from any backend
 * thread (tasks of different chunks concurrently), and only once the task's output records are
 * final and {@code status} is its outcome; every such call happens before the backend call
 * returns or throws. A task the listener was not told of is reported, as always, by its status
 * byte once the call returns. A call that fails with {@link BackendException} may already have
 * reported some tasks; those outcomes stand.
 */
@FunctionalInterface
public interface TaskListener {
    /**
     * @param task   the task's index in the call
     * @param status its {@link TaskStatus} code
     */
    void finished(int task, byte status);

    /**
     * The backend has told of every task it found ended in one look at its statuses: a listener
     * that gathers the tasks it is told of may hand them on together now. Called on the thread
     * that told them, after them, before the backend call returns; a backend that never calls it
     * leaves the gathered tasks to the end of the call.
     */
    default void scanned() {
    }
}
