package org.netpubsub.network.discovery;

/**
 * The windows that spread link discovery's probes over its interval ({@link LinkDiscovery.Config}
 * slots): the interval is cut into {@code slots} windows of equal width, window {@code k} of every
 * interval belongs to slot {@code k}, and intervals are counted from time 0 of the discovery clock.
 */
final class SlotWindows {
  private SlotWindows() {}

  /**
   * The start of slot {@code slot}'s latest window that has begun at {@code now} (a time before
   * {@code now}'s interval's, or before 0, if the slot's window in this interval is still ahead).
   */
  static long lastStart(long now, long interval, int slots, int slot) {
    long start = Math.floorDiv(now, interval) * interval + offset(interval, slots, slot);
    return start <= now ? start : start - interval;
  }

  /** Where slot {@code slot}'s window begins within an interval. */
  static long offset(long interval, int slots, int slot) {
    return interval * slot / slots;
  }
}
