package org.netpubsub.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class LatencySummaryTest {
  @Test
  void keepsEverySequenceButRecordsOnlyThoseAfterTheWarmUp() throws DataFormatException {
    LatencySummary s = new LatencySummary(2);
    s.record(1, 90_000_000); // 90 ms, warm-up: kept, not in the histogram
    s.record(2, 80_000_000);
    s.record(3, 1_500_000); // 1.5 ms
    s.record(4, 400); // under 1 µs: counts as 1 µs
    Map<String, Object> r = s.result();

    assertThat(r.get("kind")).isEqualTo("latency");
    assertThat(r.get("sequences")).isEqualTo(List.of(1L, 2L, 3L, 4L));
    Histogram h = decode((String) r.get("histogram"));
    assertThat(h.getTotalCount()).isEqualTo(2);
    assertThat(h.getMaxValue()).isBetween(1499L, 1501L);
    assertThat(h.getMinValue()).isEqualTo(1);
    assertThat(s.count()).isEqualTo(4);
  }

  @Test
  void growsPastItsFirstArraysAndClampsLatenciesToTheHistogramsRange() throws DataFormatException {
    LatencySummary s = new LatencySummary(0);
    for (int i = 1; i <= 10_000; i++) {
      s.record(i, 2_000L * i);
    }
    s.record(10_001, Long.MAX_VALUE); // a clock step forward: 60 s, not an exception
    Histogram h = decode((String) s.result().get("histogram"));
    assertThat(h.getTotalCount()).isEqualTo(10_001);
    assertThat(h.getMaxValue()).isGreaterThanOrEqualTo(LatencySummary.HIGHEST_US);
    assertThat((List<?>) s.result().get("sequences")).hasSize(10_001);
  }

  @Test
  void maxByTenthSplitsBySequenceAsThePythonClientsDo() {
    // peer_verdict.max_by_tenth: tenth = min(9, (seq - 1) * 10 // max_seq)
    long[] seqs = {1, 10, 11, 50, 100, 91};
    long[] lat = {5, 7, 3, 40, 9, 12};
    assertThat(LatencySummary.maxByTenth(seqs, lat, seqs.length))
        .containsExactly(7, 3, 0, 0, 40, 0, 0, 0, 0, 12);
    assertThat(LatencySummary.maxByTenth(seqs, lat, 0)).isEmpty();
  }

  @Test
  void refusesANegativeWarmUp() {
    assertThatThrownBy(() -> new LatencySummary(-1)).hasMessageContaining("--warmup");
  }

  private static Histogram decode(String base64) throws DataFormatException {
    return Histogram.decodeFromCompressedByteBuffer(
        ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
  }
}
