package org.netpubsub.network.nbi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

/** Topic text: canonical form round-trips; any other text parses or fails with a sane column. */
class NbiTopicProperties {
  private static final Pattern ERROR =
      Pattern.compile("^topic '.*', column (\\d+): .+$", Pattern.DOTALL);

  @Property(tries = 500)
  void canonicalTextRoundTrips(@ForAll("topics") NbiTopic t) {
    assertThat(NbiTopic.parse(t.toString())).isEqualTo(t);
  }

  @Property(tries = 1000)
  void anyTextParsesOrNamesAColumnInsideIt(@ForAll("texts") String text) {
    try {
      NbiTopic t = NbiTopic.parse(text);
      assertThat(NbiTopic.parse(t.toString())).isEqualTo(t);
      Statistics.collect("parsed");
    } catch (IllegalArgumentException e) {
      Matcher m = ERROR.matcher(e.getMessage());
      assertThat(m.matches()).as(e.getMessage()).isTrue();
      int column = Integer.parseInt(m.group(1));
      assertThat(column).isBetween(1, text.length() + 1); // one past the end: text ended early
      Statistics.collect("rejected");
    }
  }

  @Provide
  Arbitrary<NbiTopic> topics() {
    return NbiArbitraries.topics();
  }

  /** Valid topics with a character inserted, deleted or replaced, and topic-ish noise. */
  @Provide
  Arbitrary<String> texts() {
    String alphabet = "abcdeiprstuvxy_=,@/&*:. 0123456789f";
    Arbitrary<String> noise =
        Arbitraries.strings().withChars(alphabet.toCharArray()).ofMaxLength(40);
    Arbitrary<String> mutated =
        Combinators.combine(
                NbiArbitraries.topics().map(NbiTopic::toString),
                Arbitraries.integers().between(0, 2),
                Arbitraries.integers().between(0, 1000),
                Arbitraries.of(alphabet.chars().mapToObj(c -> (char) c).toList()))
            .as(NbiTopicProperties::mutate);
    return Arbitraries.frequencyOf(Tuple.of(1, noise), Tuple.of(3, mutated));
  }

  private static String mutate(String s, int how, int where, char c) {
    int i = where % (s.length() + 1);
    return switch (how) {
      case 0 -> s.substring(0, i) + c + s.substring(i);
      case 1 -> i < s.length() ? s.substring(0, i) + s.substring(i + 1) : s;
      default -> i < s.length() ? s.substring(0, i) + c + s.substring(i + 1) : s;
    };
  }
}
