package org.netpubsub.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.netpubsub.http.ReadWatch.Seen.BODY_WAITING;
import static org.netpubsub.http.ReadWatch.Seen.HEADER;
import static org.netpubsub.http.ReadWatch.Seen.IDLE;
import static org.netpubsub.http.ReadWatch.Seen.SERVING;

import org.junit.jupiter.api.Test;

/** The sampled deadlines: which time counts toward a header's or a body's, and which does not. */
class ReadWatchTest {
  private static final long H = 10;
  private static final long B = 30;

  @Test
  void theFirstHeaderIsDueFromTheAcceptEvenWithNothingSent() {
    ReadWatch w = new ReadWatch(100);
    assertThat(w.sample(109, 0, IDLE, H, B)).isEqualTo(ReadWatch.Missed.NONE);
    assertThat(w.sample(110, 0, IDLE, H, B)).isEqualTo(ReadWatch.Missed.HEADER);
    ReadWatch begun = new ReadWatch(100);
    assertThat(begun.sample(105, 0, HEADER, H, B)).isEqualTo(ReadWatch.Missed.NONE);
    assertThat(begun.sample(110, 0, HEADER, H, B)).isEqualTo(ReadWatch.Missed.HEADER);
  }

  @Test
  void restBetweenRequestsAndServingAreNotCounted() {
    ReadWatch w = new ReadWatch(0);
    assertThat(w.sample(5, 1, SERVING, H, B)).isEqualTo(ReadWatch.Missed.NONE);
    assertThat(w.sample(500, 1, IDLE, H, B)).isEqualTo(ReadWatch.Missed.NONE); // keep-alive rest
    assertThat(w.sample(501, 1, HEADER, H, B)).isEqualTo(ReadWatch.Missed.NONE); // from here
    assertThat(w.sample(510, 1, HEADER, H, B)).isEqualTo(ReadWatch.Missed.NONE);
    assertThat(w.sample(511, 1, HEADER, H, B)).isEqualTo(ReadWatch.Missed.HEADER);
  }

  @Test
  void eachCompletedHeaderStartsTheNextOnesTime() {
    ReadWatch w = new ReadWatch(0);
    for (long t = 0, n = 0; t < 1000; t += 9, n++) {
      // a pipelining client always caught mid-header, but finishing one every 9 ticks
      assertThat(w.sample(t, n, HEADER, H, B)).isEqualTo(ReadWatch.Missed.NONE);
    }
  }

  @Test
  void aBodyCountsOnlyWhileTheServerWaitsForIt() {
    ReadWatch w = new ReadWatch(0);
    assertThat(w.sample(1, 1, SERVING, H, B)).isEqualTo(ReadWatch.Missed.NONE); // not asked yet
    assertThat(w.sample(100, 1, BODY_WAITING, H, B)).isEqualTo(ReadWatch.Missed.NONE);
    assertThat(w.sample(120, 1, BODY_WAITING, H, B)).isEqualTo(ReadWatch.Missed.NONE);
    assertThat(w.sample(121, 1, SERVING, H, B)).isEqualTo(ReadWatch.Missed.NONE);
    assertThat(w.sample(122, 1, BODY_WAITING, H, B)).isEqualTo(ReadWatch.Missed.NONE);
    assertThat(w.sample(151, 1, BODY_WAITING, H, B)).isEqualTo(ReadWatch.Missed.NONE);
    assertThat(w.sample(152, 1, BODY_WAITING, H, B)).isEqualTo(ReadWatch.Missed.BODY);
  }
}
