package org.netpubsub.edge.mqtt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** The matcher against a naive twin: the filter turned into a regular expression. */
class TopicFiltersProperties {
  @Property(tries = 3000)
  void matchesLikeTheRegexTwin(@ForAll("filters") String filter, @ForAll("topics") String topic) {
    assertThat(TopicFilters.matches(filter, topic))
        .as("%s ~ %s", filter, topic)
        .isEqualTo(naive(filter, topic));
  }

  /** MQTT 5.0 §4.7 by regex: '+' is one level, a trailing '#' any levels, '$' not by wildcards. */
  static boolean naive(String filter, String topic) {
    if (topic.startsWith("$") && (filter.startsWith("+") || filter.startsWith("#"))) {
      return false;
    }
    StringBuilder re = new StringBuilder();
    String[] levels = filter.split("/", -1);
    for (int i = 0; i < levels.length; i++) {
      String l = levels[i];
      if (l.equals("#")) {
        // "#" alone: everything; "a/#": "a" and below
        re.append(i == 0 ? ".*" : "");
        if (i > 0) {
          re.setLength(re.length() - 1); // drop the '/' before '#'
          re.append("(/.*)?");
        }
        break;
      }
      re.append(l.equals("+") ? "[^/]*" : Pattern.quote(l));
      if (i < levels.length - 1) {
        re.append('/');
      }
    }
    return Pattern.compile(re.toString(), Pattern.DOTALL).matcher(topic).matches();
  }

  @Provide
  Arbitrary<String> topics() {
    Arbitrary<String> level = Arbitraries.of("a", "b", "", "$SYS", "$x", "ab");
    return level.list().ofMinSize(1).ofMaxSize(4).map(l -> String.join("/", l));
  }

  @Provide
  Arbitrary<String> filters() {
    Arbitrary<String> level = Arbitraries.of("a", "b", "", "+", "$SYS", "ab");
    Arbitrary<List<String>> levels = level.list().ofMinSize(1).ofMaxSize(4);
    Arbitrary<Boolean> hash = Arbitraries.of(true, false);
    return Combinators.combine(levels, hash)
        .as(
            (l, h) -> {
              String f = String.join("/", l);
              return h ? f + "/#" : f;
            })
        .injectDuplicates(0.05)
        .edgeCases(e -> e.add("#"));
  }

  @Test
  void examples() {
    assertThat(TopicFilters.matches("#", "a/b")).isTrue();
    assertThat(TopicFilters.matches("a/#", "a")).isTrue();
    assertThat(TopicFilters.matches("a/+", "a")).isFalse();
    assertThat(TopicFilters.matches("a/+", "a/")).isTrue();
    assertThat(TopicFilters.matches("#", "$SYS/x")).isFalse();
    assertThat(TopicFilters.matches("+/x", "$SYS/x")).isFalse();
    assertThat(TopicFilters.matches("$SYS/#", "$SYS/x")).isTrue();
  }

  @Test
  void invalidFiltersAndTopicsAreRefusedWithTheReason() {
    assertThatThrownBy(() -> TopicFilters.checkFilter("a/#/b")).hasMessageContaining("last");
    assertThatThrownBy(() -> TopicFilters.checkFilter("a+")).hasMessageContaining("whole level");
    assertThatThrownBy(() -> TopicFilters.checkFilter("")).hasMessageContaining("empty");
    assertThatThrownBy(() -> TopicFilters.checkTopic("a/+")).hasMessageContaining("'+'");
    assertThatThrownBy(() -> TopicFilters.checkTopic("a\0")).hasMessageContaining("U+0000");
  }
}
