package org.netpubsub.controller.southbound;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * Counters of one OpenFlow server: connections, handshakes, disconnects by reason, messages,
 * batches and their outcomes. Thread-safe; read them at any time ({@link #snapshot}).
 */
public final class SouthboundMetrics {
  private final LongAdder connectionsAccepted = new LongAdder();
  private final LongAdder handshakesCompleted = new LongAdder();
  private final EnumMap<DisconnectReason, LongAdder> disconnects =
      new EnumMap<>(DisconnectReason.class);
  private final LongAdder messagesReceived = new LongAdder();
  private final LongAdder messagesSent = new LongAdder();
  private final LongAdder batchesAcknowledged = new LongAdder();
  private final LongAdder batchesFailed = new LongAdder();
  private final LongAdder batchesTimedOut = new LongAdder();
  private final LongAdder modsSent = new LongAdder();
  private final LongAdder unsolicitedErrors = new LongAdder();
  private final LongAdder unmatchedReplies = new LongAdder();
  private final LongAdder listenerFailures = new LongAdder();
  private final LongAdder reconciles = new LongAdder();
  private final LongAdder reconcileFailures = new LongAdder();
  private final LongAdder reconcileDifferences = new LongAdder();
  private final LongAdder tlsTurnsOverflow = new LongAdder();
  private volatile LongSupplier tlsTurnsWaiting = () -> 0;
  private volatile LongConsumer barrierLatencyNanos = n -> {};

  public SouthboundMetrics() {
    for (DisconnectReason r : DisconnectReason.values()) {
      disconnects.put(r, new LongAdder());
    }
  }

  public long connectionsAccepted() {
    return connectionsAccepted.sum();
  }

  public long handshakesCompleted() {
    return handshakesCompleted.sum();
  }

  /** Connections ended for this reason (also those that never finished the handshake). */
  public long disconnects(DisconnectReason reason) {
    return disconnects.get(reason).sum();
  }

  public long messagesReceived() {
    return messagesReceived.sum();
  }

  public long messagesSent() {
    return messagesSent.sum();
  }

  public long batchesAcknowledged() {
    return batchesAcknowledged.sum();
  }

  public long batchesFailed() {
    return batchesFailed.sum();
  }

  public long batchesTimedOut() {
    return batchesTimedOut.sum();
  }

  public long modsSent() {
    return modsSent.sum();
  }

  public long unsolicitedErrors() {
    return unsolicitedErrors.sum();
  }

  /** Replies whose xid matched no pending request (late answers to timed-out requests). */
  public long unmatchedReplies() {
    return unmatchedReplies.sum();
  }

  public long listenerFailures() {
    return listenerFailures.sum();
  }

  public long reconciles() {
    return reconciles.sum();
  }

  public long reconcileFailures() {
    return reconcileFailures.sum();
  }

  /** Messages the reconciles sent: flows and groups that differed from the desired state. */
  public long reconcileDifferences() {
    return reconcileDifferences.sum();
  }

  /** TLS handshakes begun at once although they would wait: waiting was full (TlsTurn). */
  public long tlsTurnsOverflow() {
    return tlsTurnsOverflow.sum();
  }

  /** TLS connections waiting for a handshake turn now (a gauge, read from the turns). */
  public long tlsTurnsWaiting() {
    return tlsTurnsWaiting.getAsLong();
  }

  /**
   * Where each acknowledged batch's barrier latency goes (send to barrier reply, nanoseconds): a
   * histogram of the metrics registry. One listener; a later call replaces it.
   */
  public void onBarrierLatency(LongConsumer nanos) {
    barrierLatencyNanos = nanos;
  }

  /** Every counter by name ({@code disconnects.DEAD_PEER}, ...), in a stable order. */
  public Map<String, Long> snapshot() {
    Map<String, Long> m = new LinkedHashMap<>();
    m.put("connectionsAccepted", connectionsAccepted());
    m.put("handshakesCompleted", handshakesCompleted());
    for (DisconnectReason r : DisconnectReason.values()) {
      m.put("disconnects." + r.name(), disconnects(r));
    }
    m.put("messagesReceived", messagesReceived());
    m.put("messagesSent", messagesSent());
    m.put("modsSent", modsSent());
    m.put("batchesAcknowledged", batchesAcknowledged());
    m.put("batchesFailed", batchesFailed());
    m.put("batchesTimedOut", batchesTimedOut());
    m.put("unsolicitedErrors", unsolicitedErrors());
    m.put("unmatchedReplies", unmatchedReplies());
    m.put("listenerFailures", listenerFailures());
    m.put("reconciles", reconciles());
    m.put("reconcileFailures", reconcileFailures());
    m.put("reconcileDifferences", reconcileDifferences());
    m.put("tlsTurnsOverflow", tlsTurnsOverflow());
    m.put("tlsTurnsWaiting", tlsTurnsWaiting());
    return m;
  }

  @Override
  public String toString() {
    return snapshot().toString();
  }

  void connectionAccepted() {
    connectionsAccepted.increment();
  }

  void handshakeCompleted() {
    handshakesCompleted.increment();
  }

  void disconnected(DisconnectReason reason) {
    disconnects.get(reason).increment();
  }

  void messageReceived() {
    messagesReceived.increment();
  }

  void messagesSent(int n) {
    messagesSent.add(n);
  }

  void modsSent(int n) {
    modsSent.add(n);
  }

  void batchAcknowledged(long latencyNanos) {
    batchesAcknowledged.increment();
    barrierLatencyNanos.accept(latencyNanos);
  }

  void batchFailed() {
    batchesFailed.increment();
  }

  void batchTimedOut() {
    batchesTimedOut.increment();
  }

  void unsolicitedError() {
    unsolicitedErrors.increment();
  }

  void unmatchedReply() {
    unmatchedReplies.increment();
  }

  void listenerFailed() {
    listenerFailures.increment();
  }

  void reconciled(int differences) {
    reconciles.increment();
    reconcileDifferences.add(differences);
  }

  void reconcileFailed() {
    reconcileFailures.increment();
  }

  void tlsTurnOverflow() {
    tlsTurnsOverflow.increment();
  }

  void tlsTurnsWaitingFrom(LongSupplier waiting) {
    tlsTurnsWaiting = waiting;
  }
}
