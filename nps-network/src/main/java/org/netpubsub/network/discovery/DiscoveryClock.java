package org.netpubsub.network.discovery;

/**
 * The time link discovery should see: the wall clock, except that a gap between two readings longer
 * than {@code maxStepMillis} counts as {@code maxStepMillis}. While the controller's loop is
 * stalled (a long request, a garbage collection) it sends no probe and reads no LLDP, so the
 * silence says nothing about the links; measured in wall time, the first tick after a long stall
 * would expire every link whose LLDP is still queued behind it. Monotonic; not thread-safe (the
 * loop owns it).
 */
public final class DiscoveryClock {
  private final long maxStepMillis;
  private long lastWall;
  private long now;

  /**
   * @param wallNow the wall clock now (milliseconds)
   * @param maxStepMillis the longest gap counted in full; set it above the loop's tick interval
   */
  public DiscoveryClock(long wallNow, long maxStepMillis) {
    if (maxStepMillis < 1) {
      throw new IllegalArgumentException("maxStepMillis must be positive, got " + maxStepMillis);
    }
    this.maxStepMillis = maxStepMillis;
    this.lastWall = wallNow;
    this.now = wallNow;
  }

  /** Reads the clock at wall time {@code wallNow}; a wall clock going backwards counts as 0. */
  public long read(long wallNow) {
    long gap = wallNow - lastWall;
    now += Math.clamp(gap, 0, maxStepMillis);
    lastWall = Math.max(lastWall, wallNow);
    return now;
  }
}
