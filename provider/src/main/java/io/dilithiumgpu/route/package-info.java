/**
 * Where each JCA signature and verification runs ({@link io.dilithiumgpu.route.Route}): on the
 * caller's thread, through the batcher, or with the JDK's own ML-DSA. {@link
 * io.dilithiumgpu.route.RouteChoice} holds the rule as pure functions of measured costs and
 * counts; {@link io.dilithiumgpu.route.Router} measures each route's cost per operation and set as
 * calls run ({@code LoadedRoundTrip}: the batcher's at the load it carries; {@code SaturationTrial}:
 * the other route tried by the calls it completes while the cores are full),
 * counts the calls in flight, those on callers' threads and the spare cores, and
 * publishes its counts as the MXBean {@code io.dilithiumgpu:type=Router}. {@link io.dilithiumgpu.route.RouteSetting} is the
 * property that pins a route.
 */
package io.dilithiumgpu.route;
