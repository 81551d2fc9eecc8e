package org.netpubsub.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.event.EventCodec;
import org.netpubsub.content.filter.Dnf;
import org.netpubsub.content.filter.FilterEvaluator;

class ReceiveWarmupTest {
  private final EventCodec codec = new EventCodec(TestSchemas.quotes());

  private Dnf filter(String text) {
    return Filters.parseExact(TestSchemas.quotes(), text, "a subscription");
  }

  @Test
  void bothOutcomesOfANarrowFilterAreExercised() {
    // a random event would match this one in ~1/10 000: the warm-up aims at the constraints
    Dnf narrow = filter("symbol == \"IBM\" && price >= 500 && price <= 502 || volume == 7");
    int n = 2_000;
    int matched = ReceiveWarmup.run(codec, narrow, n, 1);
    assertThat(matched).isBetween(n / 4, n - n / 4);
  }

  @Test
  void everySyntheticEventIsOfTheSchemaAndTheCountIsTheFiltersVerdict() throws Exception {
    Dnf f = filter("price > 100 && symbol == \"AAPL\"");
    SplittableRandom random = new SplittableRandom(7);
    int matched = 0;
    for (int i = 0; i < 500; i++) {
      Event e = ReceiveWarmup.event(codec, f, random, i);
      assertThat(codec.decode(codec.encode(e))).isEqualTo(e); // round-trips: a valid event
      matched += FilterEvaluator.matches(f, e) ? 1 : 0;
    }
    assertThat(ReceiveWarmup.run(codec, f, 500, 7)).isEqualTo(matched);
  }

  @Test
  void aFilterWithoutConstraintsMatchesEverything() {
    assertThat(ReceiveWarmup.run(codec, filter("true"), 300, 3)).isEqualTo(300);
  }
}
