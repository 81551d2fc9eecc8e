package org.netpubsub.client;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.netpubsub.content.event.DecodeException;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.event.EventCodec;
import org.netpubsub.content.filter.AttributeConstraint;
import org.netpubsub.content.filter.Conjunction;
import org.netpubsub.content.filter.Dnf;
import org.netpubsub.content.filter.FilterEvaluator;
import org.netpubsub.content.filter.IntConstraint;
import org.netpubsub.content.filter.StringConstraint;
import org.netpubsub.content.schema.Attribute;
import org.netpubsub.content.schema.IntAttribute;
import org.netpubsub.content.schema.StringAttribute;

/**
 * Runs a subscriber's receive path (decode, the exact filter) on synthetic datagrams of its schema
 * before the first real one, so that the JIT has compiled it: a JVM that just started interprets
 * that path and compiles it while the first few thousand events arrive, each compilation taking CPU
 * from everything else on the host (docs/results/peers-tail.md, session 36). The events mix values
 * inside the filter's constraints with values anywhere in the schema's domains, so both outcomes of
 * the filter are profiled and a real event does not meet a branch the compiled code never saw.
 * Nothing is counted or delivered.
 */
final class ReceiveWarmup {
  private ReceiveWarmup() {}

  /** Decodes and filters {@code events} synthetic datagrams; returns how many matched. */
  static int run(EventCodec codec, Dnf exact, int events, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    ByteBuffer buf = ByteBuffer.allocateDirect(EventCodec.MAX_SIZE + 1);
    int matched = 0;
    for (int i = 0; i < events; i++) {
      Event e = event(codec, exact, random, i);
      buf.clear();
      codec.encode(e, buf);
      buf.flip();
      try {
        if (FilterEvaluator.matches(exact, codec.decode(buf))) {
          matched++;
        }
      } catch (DecodeException x) {
        throw new IllegalStateException("a synthetic event did not decode: " + x.getMessage(), x);
      }
    }
    return matched;
  }

  /** One event: a random conjunction's constraints met three times in four, else any values. */
  static Event event(EventCodec codec, Dnf exact, SplittableRandom random, long sequence) {
    List<Conjunction> cs = exact.conjunctions();
    Conjunction c = cs.isEmpty() ? null : cs.get(random.nextInt(cs.size()));
    Event.Builder b = Event.builder(codec.schema());
    for (Attribute a : codec.schema().attributes()) {
      Optional<AttributeConstraint> k =
          c == null || random.nextInt(4) == 0 ? Optional.empty() : c.constraint(a.position());
      switch (a) {
        case IntAttribute ia -> b.set(ia, intValue(ia, k, random));
        case StringAttribute sa -> b.set(sa, stringValue(sa, k, random));
      }
    }
    return b.payload(new byte[16])
        .publisherId(1)
        .sequence(sequence + 1)
        .timestampNanos(System.currentTimeMillis() * 1_000_000L)
        .build();
  }

  private static long intValue(
      IntAttribute a, Optional<AttributeConstraint> k, SplittableRandom random) {
    long low = a.min();
    long high = a.max();
    if (k.isPresent() && k.get() instanceof IntConstraint ic) {
      low = Math.max(low, ic.low());
      high = Math.min(high, ic.high());
    }
    return high <= low ? low : random.nextLong(low, high);
  }

  private static String stringValue(
      StringAttribute a, Optional<AttributeConstraint> k, SplittableRandom random) {
    if (k.isPresent() && k.get() instanceof StringConstraint sc && sc.equalTo() != null) {
      return sc.equalTo();
    }
    int length = a.maxLength() == 0 ? 0 : 1 + random.nextInt(Math.min(a.maxLength(), 8));
    StringBuilder s = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      s.append((char) ('A' + random.nextInt(26)));
    }
    return s.toString();
  }
}
