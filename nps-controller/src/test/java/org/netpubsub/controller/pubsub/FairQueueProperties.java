package org.netpubsub.controller.pubsub;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * {@link FairQueue} against its naive twin, one list of every item in arrival order: over random
 * adds, polls and removals of four keys with random (changing) uses, the item served is the oldest
 * of the key with the least use, ties to the key that has waited longest since it was last served
 * or last arrived with nothing waiting; the size and the bound agree.
 */
class FairQueueProperties {
  private static final int BOUND = 8;

  private record Item(String key, int id) {}

  /** The twin: a flat list, and per key the step it went to the back of the order. */
  private static final class Naive {
    final List<Item> items = new ArrayList<>();
    final Map<String, Long> back = new HashMap<>();
    long step;

    boolean add(Item item) {
      if (items.size() >= BOUND) {
        return false;
      }
      if (items.stream().noneMatch(i -> i.key.equals(item.key))) {
        back.put(item.key, step++);
      }
      items.add(item);
      return true;
    }

    Item poll(Map<String, Long> use) {
      Item best = null;
      for (Item i : items) { // the first item of each key is its oldest
        if (best == null
            || use.get(i.key) < use.get(best.key)
            || (use.get(i.key).equals(use.get(best.key)) && back.get(i.key) < back.get(best.key))) {
          best = i;
        }
      }
      if (best != null) {
        Item served = best;
        Item first = items.stream().filter(i -> i.key.equals(served.key)).findFirst().orElseThrow();
        items.remove(first);
        back.put(first.key, step++);
        return first;
      }
      return null;
    }

    boolean remove(Item item) {
      return items.remove(item);
    }
  }

  @Property(tries = 300)
  void servesTheOldestOfTheLeastUsedKeyRoundRobinAmongEquals(@ForAll long seed) {
    Random r = new Random(seed);
    List<String> keys = List.of("ann", "bob", "carol", "dave");
    FairQueue<Item> queue = new FairQueue<>(BOUND);
    Naive naive = new Naive();
    Map<String, Long> use = new HashMap<>();
    keys.forEach(k -> use.put(k, (long) r.nextInt(3)));
    int id = 0;
    for (int step = 0; step < 200; step++) {
      int op = r.nextInt(10);
      if (op < 5) {
        Item item = new Item(keys.get(r.nextInt(keys.size())), id++);
        assertThat(queue.add(item.key, item)).isEqualTo(naive.add(item));
      } else if (op < 8) {
        assertThat(queue.poll(use::get)).isEqualTo(naive.poll(use));
      } else if (op < 9 && id > 0) {
        Item item = new Item(keys.get(r.nextInt(keys.size())), r.nextInt(id));
        assertThat(queue.remove(item.key, item)).isEqualTo(naive.remove(item));
      } else {
        use.put(keys.get(r.nextInt(keys.size())), (long) r.nextInt(3)); // use moves on
      }
      assertThat(queue.size()).isEqualTo(naive.items.size()).isLessThanOrEqualTo(BOUND);
      assertThat(queue.keys())
          .isEqualTo((int) naive.items.stream().map(Item::key).distinct().count());
    }
  }

  @Property(tries = 100)
  void aLoneKeyIsAlwaysServedInArrivalOrder(@ForAll long seed) {
    Random r = new Random(seed);
    FairQueue<Integer> queue = new FairQueue<>(BOUND);
    for (int i = 0; i < BOUND; i++) {
      assertThat(queue.add("mallory", i)).isTrue();
    }
    assertThat(queue.add("mallory", BOUND)).as("over the bound").isFalse();
    for (int i = 0; i < BOUND; i++) {
      long use = r.nextLong(Long.MAX_VALUE);
      assertThat(queue.poll(k -> use)).isEqualTo(i);
    }
    assertThat(queue.poll(k -> 0)).isNull();
  }
}
