package io.dilithiumgpu.backend.cuda;

import jcuda.driver.CUfunction;

/**
 * One loaded entry point on one device.
 *
 * @param name          the entry-point name, e.g. {@code sign_mldsa65}
 * @param function      its handle in the device's module
 * @param config        its launch configuration
 * @param residentTasks tasks the whole device runs at once: resident blocks per multiprocessor
 *                      (occupancy, capped by the persistence factor) × multiprocessors × tasks
 *                      per block
 */
record Kernel(String name, CUfunction function, KernelConfig config, int residentTasks) {}
