/**
 * The CUDA backend: batches run as kernel launches through JCuda's driver API (JCuda 12.6.0).
 *
 * <p>Layers, each in its own file:
 * <ul>
 *   <li>{@link io.dilithiumgpu.backend.cuda.CudaLoader}: natives, driver, device count, fatbin
 *       resource and module loading; the one place that says why CUDA is unavailable. Depends on
 *       JCuda and the JDK only.</li>
 *   <li>{@code BatchAbi}, {@code KernelConfig}, {@code BatchLayout}: the Java mirror of
 *       {@code kernels-cuda/include/batch_abi.h}: entry-point names, launch configurations and
 *       grids, and where each array of a launch lies in a slot's memory.</li>
 *   <li>{@code DeviceContext}: one GPU's primary context, its module and the kernels it launches:
 *       eighteen entry points, {@code keygen_<set>}, {@code sign_<set>} and {@code verify_<set>}
 *       for each of the six sets; its upload lane and its copy threads.</li>
 *   <li>{@code ChunkPlan}: how one call runs, decided before it starts (the device and bounds of
 *       each chunk, how records travel, ordered uploads, sleeping waits, whether its caller runs
 *       its chunks), from the devices' slots and loads ({@code DeviceLoads}): a pure function,
 *       tested without a GPU.</li>
 *   <li>{@code StreamSlot}: one stream with its pinned host block, device block, scratch,
 *       workspace and events, allocated once and reused (the paper's memory pool), and the steps
 *       a chunk is made of.</li>
 *   <li>{@code ChunkRun}: one chunk on one slot: upload, launch, download, synchronise, check,
 *       deliver, and the wipe of its secrets in {@code finally}; {@code StagedTransfer} (heap
 *       arrays through the pinned block) or {@code DirectTransfer} (registered host memory,
 *       downloaded or published) moves its records, and {@code EarlyReporter} tells a listener of
 *       published tasks as they end, for this chunk and for a published chunk of cached keys
 *       ({@code KeyedRun}) alike.</li>
 *   <li>{@code HostCopier}: fills and drains pinned memory on several threads, one per device.</li>
 *   <li>{@code DeviceSet}: the GPUs and their slots, one worker thread per slot, one queue per
 *       device.</li>
 *   <li>{@link io.dilithiumgpu.backend.cuda.CudaBackend}: the {@code Backend}; argument checks,
 *       the failure and retry policy ({@code Health}).</li>
 * </ul>
 *
 * <p>Threads: a call is planned once ({@code ChunkPlan}): dealt to the devices in equal shares
 * (a call of one chunk to the least loaded device) and cut into chunks. A call of several chunks,
 * or of one verification chunk, deals each device's share to one thread per few chunks
 * ({@code LaunchSplit}), runs the first device's first part on its own thread, on the idle slots
 * it claims there, launching all before it waits for any, and hands every other part to a worker
 * of its device, which does the same there, so that the launches run side by side; every other
 * chunk (a lone signing or key-generation chunk, as the batcher's batches usually are) and any
 * that finds no idle slot goes to its device's queue, which that device's slots' worker threads
 * serve, and the caller waits for it. The thread that finishes a
 * published chunk tells the call's listener of each task as it ends. Every thread that touches a device makes its
 * context current first ({@code cuCtxSetCurrent}). Streams are non-blocking, so the slots of one
 * GPU overlap their copies and kernels.
 *
 * <p>Secrets: seeds and private keys of key generation, private keys and ρ′/rnd of signing, and
 * the kernels' workspace. They exist in pinned and device memory only during their launch and are
 * zeroed after it, on success and failure alike; the caller's arrays are never copied elsewhere on
 * the Java heap. A signing chunk of cached keys on registered host memory ({@code KeyedRun}) has
 * its kernel read rnd where the caller keeps it: no copy of it reaches device memory.
 *
 * <p>Registered host memory: its device address is looked up once per device when it is
 * registered ({@code DeviceContext#mappedHost}), so that chunks that read or write it in place
 * make no driver call to find it.
 *
 * <p>Errors: every driver call goes through {@code CudaCall}, which names the CUresult and the
 * operation in a {@link io.dilithiumgpu.backend.BackendException}. Synchronisation is
 * {@code cuStreamSynchronize}, which returns with an error rather than hang when a kernel faults.
 */
package io.dilithiumgpu.backend.cuda;
