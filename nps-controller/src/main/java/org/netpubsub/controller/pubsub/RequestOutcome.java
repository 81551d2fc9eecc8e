package org.netpubsub.controller.pubsub;

/**
 * What a completed request did: the flow-mods sent, the switches that acknowledged them, the
 * publisher–subscriber paths set up or torn down, and the response time (accepted → every switch
 * acknowledged).
 */
public record RequestOutcome(
    PubSubRequest request, int flowChanges, int switches, int paths, long responseNanos) {
  public double responseMillis() {
    return responseNanos / 1e6;
  }
}
