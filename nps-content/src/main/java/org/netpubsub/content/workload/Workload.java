package org.netpubsub.content.workload;

import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.schema.Schema;

/**
 * A generated workload: the schema, the subscriptions (held in memory), and the events, which are
 * drawn lazily from their own seeded generator each time they are asked for, so that a million
 * events never sit in memory and every traversal yields the same events.
 */
public final class Workload {
  /** Draws event number {@code index} (0-based) from {@code rng}. */
  @FunctionalInterface
  interface EventSource {
    Event next(Rand rng, long index);
  }

  private final String model;
  private final long seed;
  private final Schema schema;
  private final List<Subscription> subscriptions;
  private final long eventCount;
  private final long eventSeed;
  private final EventSource source;

  Workload(
      String model,
      long seed,
      Schema schema,
      List<Subscription> subscriptions,
      long eventCount,
      long eventSeed,
      EventSource source) {
    this.model = model;
    this.seed = seed;
    this.schema = schema;
    this.subscriptions = List.copyOf(subscriptions);
    this.eventCount = eventCount;
    this.eventSeed = eventSeed;
    this.source = source;
  }

  public String model() {
    return model;
  }

  public long seed() {
    return seed;
  }

  public Schema schema() {
    return schema;
  }

  public List<Subscription> subscriptions() {
    return subscriptions;
  }

  public long eventCount() {
    return eventCount;
  }

  /** The events in order, drawn afresh (and identically) on every call. */
  public Iterator<Event> eventIterator() {
    Rand rng = new Rand(eventSeed);
    return new Iterator<>() {
      private long next;

      @Override
      public boolean hasNext() {
        return next < eventCount;
      }

      @Override
      public Event next() {
        if (next >= eventCount) {
          throw new NoSuchElementException();
        }
        return source.next(rng, next++);
      }
    };
  }

  /** The events as a sequential, ordered stream; see {@link #eventIterator()}. */
  public Stream<Event> events() {
    int characteristics = Spliterator.ORDERED | Spliterator.NONNULL | Spliterator.IMMUTABLE;
    return StreamSupport.stream(
        Spliterators.spliterator(eventIterator(), eventCount, characteristics), false);
  }
}
