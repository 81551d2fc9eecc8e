package org.netpubsub.controller.pubsub;

/**
 * What one host may ask of the controller: filter size, request rate (a token bucket: {@code
 * requestsPerSecond} sustained, {@code burst} at once) and live advertisements plus subscriptions.
 * A production default: generous for applications, a wall against a runaway client.
 */
public record PubSubLimits(
    int maxFilterBytes, double requestsPerSecond, int burst, int maxLivePerHost, int maxCells) {
  public static final PubSubLimits DEFAULTS = new PubSubLimits(8 * 1024, 200, 400, 10_000, 64);

  public PubSubLimits {
    if (maxFilterBytes < 1 || requestsPerSecond <= 0 || burst < 1 || maxLivePerHost < 1) {
      throw new IllegalArgumentException("limits must be positive");
    }
    if (maxCells < 1) {
      throw new IllegalArgumentException("the cell budget must be positive: " + maxCells);
    }
  }

  public PubSubLimits withRate(double perSecond, int burstSize) {
    return new PubSubLimits(maxFilterBytes, perSecond, burstSize, maxLivePerHost, maxCells);
  }

  public PubSubLimits withMaxCells(int cells) {
    return new PubSubLimits(maxFilterBytes, requestsPerSecond, burst, maxLivePerHost, cells);
  }
}
