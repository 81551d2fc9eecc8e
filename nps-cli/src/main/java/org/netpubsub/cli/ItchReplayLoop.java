package org.netpubsub.cli;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import org.netpubsub.compiler.itch.MoldBatcher;
import org.netpubsub.compiler.itch.PortSplitter;

/**
 * The replay's moving part: messages are batched into MoldUDP64 packets as a publisher would, and
 * each packet goes through the splitter (and, when asked, every port's packets are cut and copied).
 * The clock is read here, around the software path alone, so that the rate excludes reading or
 * generating the feed; the thread's CPU time covers everything.
 */
final class ItchReplayLoop {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private final PortSplitter splitter;
  private final boolean write;
  private final ProgressMeter progress;
  private final MoldBatcher batcher;
  private final long cpuStart = cpuNanos();
  private final long wallStart = System.nanoTime();
  private long softwareNanos;
  private long written;
  private long messagesIn;
  private long cpuNanos;
  private long wallNanos;

  ItchReplayLoop(
      PortSplitter splitter,
      byte[] session,
      int perPacket,
      int payload,
      boolean write,
      ProgressMeter progress) {
    this.splitter = splitter;
    this.write = write;
    this.progress = progress;
    this.batcher = new MoldBatcher(session, 1, perPacket, payload, this::packet);
  }

  /** The next message of the feed. */
  void message(byte[] buf, int off, int len) {
    messagesIn++;
    batcher.add(buf, off, len);
  }

  private void packet(byte[] buf, int off, int len) {
    long t0 = System.nanoTime();
    splitter.split(buf, off, len);
    if (write) {
      splitter.emit((port, b, o, l) -> written += l);
    }
    long t1 = System.nanoTime();
    softwareNanos += t1 - t0;
    progress.update(messagesIn);
  }

  /** Sends the last packet and the end of the session; stops the clocks. */
  void finish() {
    batcher.endOfSession();
    cpuNanos = cpuNanos() - cpuStart;
    wallNanos = System.nanoTime() - wallStart;
  }

  long messagesIn() {
    return messagesIn;
  }

  /** Packets the publisher side produced, the end of session included. */
  long packetsIn() {
    return batcher.packets();
  }

  /** Wall-clock seconds spent splitting (and writing, with --write): the software path. */
  double softwareSeconds() {
    return softwareNanos / 1e9;
  }

  /** CPU seconds of the replaying thread: reading or generating, batching and the software path. */
  double cpuSeconds() {
    return cpuNanos / 1e9;
  }

  double wallSeconds() {
    return wallNanos / 1e9;
  }

  /** Bytes of per-port packets written (with --write). */
  long written() {
    return written;
  }

  private static long cpuNanos() {
    return THREADS.isCurrentThreadCpuTimeSupported() ? THREADS.getCurrentThreadCpuTime() : 0;
  }
}
