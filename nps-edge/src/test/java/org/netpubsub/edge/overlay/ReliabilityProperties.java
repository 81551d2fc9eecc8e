package org.netpubsub.edge.overlay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.netpubsub.edge.broker.DatagramException;

/**
 * The receiver's windows against a set of delivered numbers (the twin): whatever the loss,
 * duplication and reordering, every number is delivered at most once, and with the NACKs answered
 * every number is delivered; the NACK codec on hostile bytes; tail probes back off.
 */
class ReliabilityProperties {
  @Property(tries = 300)
  void everyMessageOnceWhateverTheLossDuplicationAndOrder(
      @ForAll @IntRange(min = 1, max = 300) int n, @ForAll long seed) {
    Random r = new Random(seed);
    ReceiveWindows w = new ReceiveWindows(4096, 10, 1000);
    long base = 1_000_000L;
    List<Long> wire = new ArrayList<>();
    for (long s = base; s < base + n; s++) {
      if (s == base || r.nextInt(4) != 0) { // the first arrives (it starts the sequence)
        wire.add(s);
      }
      if (r.nextInt(5) == 0) {
        wire.add(s); // a second path or a retransmission
      }
    }
    if (!wire.contains(base + n - 1)) {
      wire.add(base + n - 1); // the tail probe
    }
    Collections.shuffle(wire.subList(1, wire.size()), r);
    Set<Long> delivered = new HashSet<>();
    List<ReceiveWindows.Nack> nacks = new ArrayList<>();
    long now = 0;
    for (long s : wire) {
      ReceiveWindows.Verdict v = w.accept("paris", "t", s, now++, nacks);
      if (v != ReceiveWindows.Verdict.DUPLICATE) {
        assertThat(delivered.add(s)).as("delivered twice: %d", s).isTrue();
      }
    }
    // the publisher answers every NACK (repeated ones too) until nothing is missing
    for (int round = 0; round < 50 && w.missing() > 0; round++) {
      List<ReceiveWindows.Nack> ask = new ArrayList<>(nacks);
      nacks.clear();
      ask.addAll(w.due(now += 100));
      for (ReceiveWindows.Nack k : ask) {
        for (long s = k.from(); s <= k.to(); s++) {
          if (w.accept("paris", "t", s, now, nacks) != ReceiveWindows.Verdict.DUPLICATE) {
            assertThat(delivered.add(s)).isTrue();
          }
        }
      }
    }
    Set<Long> all = new HashSet<>();
    for (long s = base; s < base + n; s++) {
      all.add(s);
    }
    assertThat(delivered).isEqualTo(all);
    assertThat(w.lost()).isZero();
  }

  @Example
  void aRestartedOriginStartsANewSequenceWithoutNacks() {
    ReceiveWindows w = new ReceiveWindows(100, 10, 3);
    List<ReceiveWindows.Nack> nacks = new ArrayList<>();
    w.accept("a", "t", 5, 0, nacks);
    assertThat(w.accept("a", "t", 50_000, 1, nacks)).isEqualTo(ReceiveWindows.Verdict.DELIVER);
    assertThat(nacks).isEmpty();
    w.accept("a", "t", 50_003, 2, nacks);
    assertThat(nacks).containsExactly(new ReceiveWindows.Nack("a", "t", 50_001, 50_002));
    assertThat(w.due(100)).hasSize(1);
    w.due(200);
    w.due(300);
    assertThat(w.missing()).isZero();
    assertThat(w.lost()).isEqualTo(2);
  }

  @Example
  void historyBelowTheFirstMessageIsDeliveredOnce() {
    ReceiveWindows w = new ReceiveWindows(100, 10, 3);
    List<ReceiveWindows.Nack> nacks = new ArrayList<>();
    assertThat(w.accept("a", "t", 50, 0, nacks)).isEqualTo(ReceiveWindows.Verdict.DELIVER);
    assertThat(w.accept("a", "t", 47, 0, nacks)).isEqualTo(ReceiveWindows.Verdict.RECOVERED);
    assertThat(w.accept("a", "t", 47, 0, nacks)).isEqualTo(ReceiveWindows.Verdict.DUPLICATE);
    assertThat(w.accept("a", "t", -60, 0, nacks)).isEqualTo(ReceiveWindows.Verdict.DUPLICATE);
    assertThat(nacks).isEmpty();
  }

  @Property(tries = 1000)
  void nackDecodingNeverThrowsAnythingElse(@ForAll byte[] bytes) {
    byte[] b = bytes.clone();
    if (b.length >= 2) {
      b[0] = 'N';
      b[1] = 'K';
    }
    try {
      ReceiveWindows.Nack n = NackCodec.decode(b, 0, b.length, "me");
      assertThat(NackCodec.encode(n)).isEqualTo(b);
    } catch (DatagramException e) {
      assertThat(e.reason()).isNotBlank();
    }
  }

  @Example
  void nackRoundTripAndRefusals() throws Exception {
    var n = new ReceiveWindows.Nack("me", "a/b", 10, 12);
    byte[] b = NackCodec.encode(n);
    assertThat(NackCodec.isNack(b, 0, b.length)).isTrue();
    assertThat(NackCodec.decode(b, 0, b.length, "me")).isEqualTo(n);
    byte[] wide = NackCodec.encode(new ReceiveWindows.Nack("me", "a", 1, 1 + NackCodec.MAX_RANGE));
    assertThatThrownBy(() -> NackCodec.decode(wide, 0, wide.length, "me"))
        .hasMessageContaining("range");
    assertThatThrownBy(() -> NackCodec.decode(b, 0, b.length - 1, "me"))
        .isInstanceOf(DatagramException.class);
  }

  @Example
  void tailProbesBackOffAndStopAfterANewMessage() {
    SendBuffer s = new SendBuffer(2, 100, 3);
    s.put("t", 1, new byte[] {1}, 0);
    s.put("t", 2, new byte[] {2}, 0);
    s.put("t", 3, new byte[] {3}, 0);
    assertThat(s.get("t", 1)).isEmpty(); // capacity 2
    assertThat(s.probes(99)).isEmpty();
    assertThat(s.probes(100)).extracting(SendBuffer.Probe::seq).containsExactly(3L);
    assertThat(s.probes(199)).isEmpty();
    assertThat(s.probes(200)).hasSize(1);
    assertThat(s.probes(400)).hasSize(1);
    assertThat(s.probes(10_000)).isEmpty(); // three probes, then quiet
    s.put("t", 4, new byte[] {4}, 20_000);
    assertThat(s.probes(20_100)).extracting(SendBuffer.Probe::seq).containsExactly(4L);
  }

  @Example
  void aMessageKeptInItsSiteIsBufferedButNeverProbed() {
    SendBuffer s = new SendBuffer(4, 100, 3);
    s.put("t", 1, new byte[] {1}, 0);
    s.keep("t", 2, new byte[] {2});
    assertThat(s.get("t", 2)).isPresent(); // replayed to late joiners
    assertThat(s.last("t", 2)).hasSize(2);
    assertThat(s.probes(10_000)).isEmpty(); // neither it nor the older sent one is probed
    s.put("t", 3, new byte[] {3}, 20_000);
    assertThat(s.probes(20_100)).extracting(SendBuffer.Probe::seq).containsExactly(3L);
  }
}
