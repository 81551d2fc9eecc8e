package org.netpubsub.controller.pubsub;

/**
 * Where a request's response time goes, stage by stage: a sink told each completed request's stages
 * in nanoseconds (the controller's per-stage timers, {@code nps_pubsub_request_stage}). The stages
 * of a request configured on the controller loop add up to its response time. Called on southbound
 * threads; a sink must be thread-safe and quick.
 */
@FunctionalInterface
public interface RequestStages {
  RequestStages NONE = (stage, nanos) -> {};

  void record(Stage stage, long nanos);

  /** In the order a request passes them. */
  enum Stage {
    /** Accepted → queued for the loop: the filter's parse, normal form and cells. */
    COMPILE,
    /** Queued → the controller loop takes it (behind discovery, host learning, other requests). */
    QUEUE,
    /** The routing computes the request's flow changes (PLEROMA's configurator, Camus). */
    CONFIGURE,
    /**
     * The flow service: layout and invariant check, store, encoding, hand-off to the switches'
     * connections.
     */
    APPLY,
    /** Handed off → every switch it touched acknowledged by barrier (the switches' round trip). */
    SWITCHES;

    /** The timer's tag value. */
    public String tag() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }
}
