package org.netpubsub.cli;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * {@code nps sub --summary}: each delivery's sequence and latency kept in two primitive arrays and
 * the latency recorded in an HdrHistogram on the receive thread, printed once at the end; what a
 * benchmark harness needs (every sequence number for its exactness check, the latency distribution)
 * without serialising a JSON line per event. The histogram is in microseconds, 1 µs to 60 s at 3
 * significant digits, the range and units of the test bed's Python clients, so the harness merges
 * them alike; events with a sequence up to {@code warmup} are kept but not recorded.
 */
final class LatencySummary {
  static final long HIGHEST_US = 60_000_000;

  private final long warmup;
  private final Histogram histogram = new Histogram(1, HIGHEST_US, 3);
  private long[] sequences = new long[4096];
  private long[] latencies = new long[4096]; // µs
  private int count;

  LatencySummary(long warmup) {
    if (warmup < 0) {
      throw new IllegalArgumentException("--warmup must be at least 0");
    }
    this.warmup = warmup;
  }

  /** One delivery; its latency in µs clamped to 1…60 s (a clock step makes it 1 µs). */
  synchronized void record(long sequence, long latencyNanos) {
    if (count == sequences.length) {
      sequences = Arrays.copyOf(sequences, count * 2);
      latencies = Arrays.copyOf(latencies, count * 2);
    }
    long us = Math.clamp(latencyNanos / 1000, 1, HIGHEST_US);
    sequences[count] = sequence;
    latencies[count++] = us;
    if (Long.compareUnsigned(sequence, warmup) > 0) {
      histogram.recordValue(us);
    }
  }

  synchronized int count() {
    return count;
  }

  /**
   * {@code {"kind":"latency","sequences","histogram","max_by_tenth"}}: the histogram in its
   * compressed, base64 form (HdrHistogram's V2 encoding, which every HdrHistogram port decodes).
   */
  synchronized Map<String, Object> result() {
    List<Number> seqs = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      long s = sequences[i];
      seqs.add(s >= 0 ? (Number) s : new BigInteger(Long.toUnsignedString(s)));
    }
    ByteBuffer buf = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
    int length = histogram.encodeIntoCompressedByteBuffer(buf);
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("kind", "latency");
    m.put("sequences", seqs);
    m.put("histogram", Base64.getEncoder().encodeToString(Arrays.copyOf(buf.array(), length)));
    m.put("max_by_tenth", maxByTenth(sequences, latencies, count));
    return m;
  }

  /**
   * The highest latency of each tenth of the run by sequence (1…max): where in the run the tail is.
   * The same split as the test bed's Python clients (pubsub/peer_verdict.py, max_by_tenth).
   */
  static long[] maxByTenth(long[] sequences, long[] latencies, int count) {
    if (count == 0) {
      return new long[0];
    }
    long n = 1;
    for (int i = 0; i < count; i++) {
      n = Math.max(n, sequences[i]);
    }
    long[] out = new long[10];
    for (int i = 0; i < count; i++) {
      int tenth = (int) Math.min(9, Math.max(0, sequences[i] - 1) * 10 / n);
      out[tenth] = Math.max(out[tenth], latencies[i]);
    }
    return out;
  }
}
