/**
 * Seeded, deterministic workload generators: the synthetic workloads of PLEROMA §V-A ({@link
 * org.netpubsub.content.workload.UniformModel uniform}, {@link
 * org.netpubsub.content.workload.ZipfModel interest popularity}) and Camus §7 ({@link
 * org.netpubsub.content.workload.SsbgModel ssbg}, {@link org.netpubsub.content.workload.ItchModel
 * ITCH}), with uniform or Poisson arrivals of control requests ({@link
 * org.netpubsub.content.workload.Arrival}).
 *
 * <p>Pure code: every generator takes an explicit seed and no clock, does no I/O (except reading
 * its bundled word list), and yields the same {@link org.netpubsub.content.workload.Workload} for
 * the same seed and options, byte for byte, on any JVM: randomness comes only from {@link
 * java.util.SplittableRandom#nextLong()} and floating-point functions from {@link StrictMath}.
 * Events are drawn lazily, so a million events need no memory.
 */
package org.netpubsub.content.workload;
