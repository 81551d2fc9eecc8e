package org.netpubsub.client;

import java.util.concurrent.atomic.LongAdder;

/** The live counters behind {@link SubscriberStats}. */
final class SubscriberCounters {
  final LongAdder received = new LongAdder();
  final LongAdder delivered = new LongAdder();
  final LongAdder falsePositives = new LongAdder();
  final LongAdder malformed = new LongAdder();
  final LongAdder overflowed = new LongAdder();

  SubscriberStats snapshot() {
    return new SubscriberStats(
        received.sum(), delivered.sum(), falsePositives.sum(), malformed.sum(), overflowed.sum());
  }
}
