package org.netpubsub.edge.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.UniqueElements;

/**
 * {@link HeldKeys} against its naive twin, over random answers of a coordinator holding up to three
 * keys (so the cap on retired keys never applies) at random times: a key is accepted iff it is
 * served now, or it was served once and the first answer that stopped listing it came less than the
 * grace ago; the signing key is the answer's first; a rotation is a change of it.
 */
class HeldKeysProperties {
  private static final long GRACE = 10;

  @Property
  void acceptsWhatItsNaiveTwinAccepts(
      @ForAll @Size(min = 1, max = 30)
          List<@UniqueElements @Size(min = 1, max = 3) List<@IntRange(min = 0, max = 2) Integer>>
              answers,
      @ForAll @Size(min = 30, max = 30) List<@IntRange(min = 0, max = 8) Integer> gaps) {
    HeldKeys held = new HeldKeys(GRACE);
    List<Long> times = new ArrayList<>();
    long now = 0;
    for (int i = 0; i < answers.size(); i++) {
      now += gaps.get(i);
      times.add(now);
      List<Integer> a = answers.get(i);
      boolean rotated = held.served(a.stream().map(HeldKeysProperties::key).toList(), now);
      assertThat(rotated).isEqualTo(i > 0 && !answers.get(i - 1).get(0).equals(a.get(0)));
      List<byte[]> accepted = held.accepted(now);
      assertThat(accepted.get(0)).isEqualTo(key(a.get(0)));
      assertThat(ids(accepted)).isEqualTo(twin(answers.subList(0, i + 1), times, now));
      assertThat(accepted).hasSize(ids(accepted).size()); // no key twice
    }
  }

  /** The keys accepted at {@code now} after {@code answers} at {@code times}, by definition. */
  private static Set<Integer> twin(List<List<Integer>> answers, List<Long> times, long now) {
    List<Integer> current = answers.get(answers.size() - 1);
    Set<Integer> out = new HashSet<>(current);
    for (int k = 0; k <= 2; k++) {
      int lastListed = -1;
      for (int i = 0; i < answers.size(); i++) {
        if (answers.get(i).contains(k)) {
          lastListed = i;
        }
      }
      if (lastListed >= 0 && lastListed < answers.size() - 1) {
        long removed = times.get(lastListed + 1);
        if (now - removed < GRACE) {
          out.add(k);
        }
      }
    }
    return out;
  }

  private static Set<Integer> ids(List<byte[]> keys) {
    Set<Integer> out = new HashSet<>();
    keys.forEach(k -> out.add((int) k[0]));
    return out;
  }

  private static byte[] key(int id) {
    byte[] k = new byte[32];
    java.util.Arrays.fill(k, (byte) id);
    return k;
  }
}
