package org.netpubsub.content.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The bounded fuzzing pass that {@code mvn verify} runs for each fuzz target (docs/testing.md,
 * "Fuzzing"). A target is a class with Jazzer's entry point {@code public static void
 * fuzzerTestOneInput(byte[])}, which {@code scripts/fuzz} runs coverage-guided for long campaigns.
 * Here the same entry point gets the regression corpus ({@code src/test/resources/fuzz/NAME/*},
 * crashes found earlier), then its seeds, then {@code runs} inputs (times {@code fuzz.scale},
 * default 1) mutated from the seeds or drawn at random. Each input must end without an exception (a
 * target catches the typed parse errors it documents), within {@code fuzz.cpuMillis} of CPU time
 * (default 2 s, times {@code nps.test.timeoutScale}) and {@code fuzz.allocMiB} of allocation
 * (default 256 MiB). CPU time, not wall time: on a loaded machine a thread waits for a core. A
 * failure names the random seed ({@code -Dfuzz.seed=...} replays it) and the input in hex.
 */
public final class Fuzz {
  /** A target's entry point; it returns true when the input got past the parser. */
  @FunctionalInterface
  public interface Target {
    boolean accept(byte[] data) throws Exception;
  }

  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
  private static final byte[] INTERESTING = {0, 1, 0x7f, (byte) 0x80, (byte) 0xff, '"', '(', ')'};

  private Fuzz() {}

  /** Runs the pass; fails naming the input that threw, hung or allocated without bound. */
  public static void run(String name, Target target, List<byte[]> seeds, int runs) {
    long seed = Long.getLong("fuzz.seed", System.nanoTime());
    long total = runs * Long.getLong("fuzz.scale", 1);
    long scale = Long.getLong("nps.test.timeoutScale", 1);
    Duration cpu = Duration.ofMillis(Long.getLong("fuzz.cpuMillis", 2_000) * scale);
    long allocLimit = Long.getLong("fuzz.allocMiB", 256) << 20;
    List<byte[]> inputs = new ArrayList<>(corpus(name));
    inputs.addAll(seeds);
    AtomicReference<byte[]> current = new AtomicReference<>();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    AtomicLong accepted = new AtomicLong();
    AtomicLong started = new AtomicLong(); // CPU time of the worker when the input started
    Thread worker =
        Thread.ofPlatform()
            .daemon()
            .name("fuzz-" + name)
            .unstarted(
                () -> {
                  SplittableRandom random = new SplittableRandom(seed);
                  try {
                    for (int i = 0; i < inputs.size() + total; i++) {
                      byte[] in = i < inputs.size() ? inputs.get(i) : mutant(random, seeds);
                      current.set(in);
                      started.set(THREADS.getCurrentThreadCpuTime());
                      long bytes = THREADS.getCurrentThreadAllocatedBytes();
                      if (target.accept(in.clone())) {
                        accepted.incrementAndGet();
                      }
                      long used = THREADS.getCurrentThreadAllocatedBytes() - bytes;
                      if (used > allocLimit) {
                        throw new AssertionError("allocated " + (used >> 20) + " MiB");
                      }
                    }
                    current.set(null);
                  } catch (Throwable t) {
                    failure.set(t);
                  }
                });
    worker.start();
    try {
      while (!worker.join(Duration.ofMillis(20))) {
        long now = THREADS.getThreadCpuTime(worker.threadId());
        if (now - started.get() > cpu.toNanos()) {
          worker.interrupt();
          throw new AssertionError(report(name, seed, current.get(), "used more than " + cpu));
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
    if (failure.get() != null) {
      throw new AssertionError(report(name, seed, current.get(), "failed"), failure.get());
    }
    // Something got past the parser: the pass exercised more than the first length check.
    assertThat(accepted.get()).as("%s: inputs accepted", name).isPositive();
  }

  private static String report(String name, long seed, byte[] input, String what) {
    return String.format(
        "fuzz target %s %s on input %s (-Dfuzz.seed=%d; keep it as a file in"
            + " src/test/resources/fuzz/%s/)",
        name, what, input == null ? "?" : HexFormat.of().formatHex(input), seed, name);
  }

  /** One to four mutations of a seed (or of random bytes, one input in eight). */
  static byte[] mutant(SplittableRandom r, List<byte[]> seeds) {
    byte[] b =
        seeds.isEmpty() || r.nextInt(8) == 0
            ? randomBytes(r, r.nextInt(64))
            : seeds.get(r.nextInt(seeds.size())).clone();
    int n = 1 + r.nextInt(4);
    for (int k = 0; k < n; k++) {
      b = mutate(r, b, seeds);
    }
    return b;
  }

  private static byte[] mutate(SplittableRandom r, byte[] b, List<byte[]> seeds) {
    int len = b.length;
    int at = len == 0 ? 0 : r.nextInt(len);
    switch (r.nextInt(7)) {
      case 0 -> { // flip a bit
        if (len > 0) {
          b[at] ^= (byte) (1 << r.nextInt(8));
        }
      }
      case 1 -> { // an edge value
        if (len > 0) {
          b[at] = INTERESTING[r.nextInt(INTERESTING.length)];
        }
      }
      case 2 -> b = splice(b, at, at, randomBytes(r, 1 + r.nextInt(8))); // insert
      case 3 -> b = splice(b, at, Math.min(len, at + 1 + r.nextInt(8)), new byte[0]); // delete
      case 4 -> b = java.util.Arrays.copyOf(b, len == 0 ? 0 : r.nextInt(len)); // truncate
      case 5 -> { // repeat a slice
        int end = Math.min(len, at + 1 + r.nextInt(16));
        b = splice(b, end, end, java.util.Arrays.copyOfRange(b, at, end));
      }
      default -> { // splice in a piece of another seed
        if (!seeds.isEmpty()) {
          byte[] o = seeds.get(r.nextInt(seeds.size()));
          int from = o.length == 0 ? 0 : r.nextInt(o.length);
          int to = Math.min(o.length, from + 1 + r.nextInt(32));
          b = splice(b, at, at, java.util.Arrays.copyOfRange(o, from, to));
        }
      }
    }
    return b;
  }

  private static byte[] splice(byte[] b, int from, int to, byte[] with) {
    byte[] out = new byte[b.length - (to - from) + with.length];
    System.arraycopy(b, 0, out, 0, from);
    System.arraycopy(with, 0, out, from, with.length);
    System.arraycopy(b, to, out, from + with.length, b.length - to);
    return out;
  }

  private static byte[] randomBytes(SplittableRandom r, int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) r.nextInt(256);
    }
    return b;
  }

  /** The regression corpus: one file per input, listed in {@code fuzz/NAME/index}. */
  static List<byte[]> corpus(String name) {
    List<byte[]> out = new ArrayList<>();
    ClassLoader loader = Fuzz.class.getClassLoader();
    try (InputStream index = loader.getResourceAsStream("fuzz/" + name + "/index")) {
      if (index == null) {
        return out;
      }
      for (String file : new String(index.readAllBytes()).split("\\s+")) {
        if (!file.isEmpty()) {
          try (InputStream in = loader.getResourceAsStream("fuzz/" + name + "/" + file)) {
            assertThat(in).as("fuzz/%s/%s listed in its index", name, file).isNotNull();
            out.add(in.readAllBytes());
          }
        }
      }
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    return out;
  }
}
