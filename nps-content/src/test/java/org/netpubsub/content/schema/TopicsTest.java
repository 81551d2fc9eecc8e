package org.netpubsub.content.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** MQTT's matching rules (3.1.1 §4.7), against examples of the standard and a regex twin. */
class TopicsTest {
  @Test
  void theStandardsExamples() {
    assertThat(Topics.matches("sport/tennis/player1/#", "sport/tennis/player1")).isTrue();
    assertThat(Topics.matches("sport/tennis/player1/#", "sport/tennis/player1/ranking")).isTrue();
    assertThat(Topics.matches("sport/#", "sport")).isTrue();
    assertThat(Topics.matches("sport/tennis/+", "sport/tennis/player1")).isTrue();
    assertThat(Topics.matches("sport/tennis/+", "sport/tennis/player1/ranking")).isFalse();
    assertThat(Topics.matches("sport/+", "sport")).isFalse();
    assertThat(Topics.matches("+/+", "sport/tennis")).isTrue();
    assertThat(Topics.matches("#", "$SYS/uptime")).isFalse();
    assertThat(Topics.matches("+/uptime", "$SYS/uptime")).isFalse();
    assertThat(Topics.matches("$SYS/#", "$SYS/uptime")).isTrue();
  }

  @Test
  void badNamesAndFiltersSayWhy() {
    assertThat(Topics.nameProblem("a//b", 4)).isEqualTo("topic 'a//b' has an empty level 2");
    assertThat(Topics.nameProblem("a/b/c", 2)).isEqualTo("topic 'a/b/c' has 3 levels, at most 2");
    assertThat(Topics.nameProblem("a/+", 4))
        .isEqualTo("topic 'a/+' has a wildcard (+ or #) in level 2");
    assertThat(Topics.filterProblem("a/#/b", 4))
        .isEqualTo("topic filter 'a/#/b': '#' must be the last level");
    assertThat(Topics.filterProblem("a/b+", 4))
        .isEqualTo("topic filter 'a/b+': a wildcard (+ or #) must be a whole level");
    assertThat(Topics.filterProblem("/a", 4)).isEqualTo("topic filter '/a' has an empty level 1");
    assertThat(Topics.filterProblem("a/b/c/#", 3)).isNull();
    assertThat(Topics.filterProblem("a/b/c/d", 3))
        .isEqualTo("topic filter 'a/b/c/d' has 4 levels, at most 3");
  }

  @Property(tries = 2000)
  void matchesLikeARegex(@ForAll("filters") String filter, @ForAll("names") String name) {
    String regex =
        filter.equals("#")
            ? "[^$].*|"
            : filter
                .replace("$", "\\$")
                .replace("+", "[^/]+")
                .replace("/#", "(/.*)?")
                .replaceFirst("^\\[\\^/\\]\\+", "[^/\\$][^/]*");
    assertThat(Topics.matches(filter, name))
        .as("%s ~ %s (%s)", filter, name, regex)
        .isEqualTo(Pattern.matches(regex, name));
  }

  @Provide
  Arbitrary<String> names() {
    return Arbitraries.of("a", "b", "$s")
        .list()
        .ofMinSize(1)
        .ofMaxSize(4)
        .map(l -> String.join("/", l));
  }

  @Provide
  Arbitrary<String> filters() {
    Arbitrary<String> body =
        Arbitraries.of("a", "b", "$s", "+")
            .list()
            .ofMinSize(1)
            .ofMaxSize(4)
            .map(l -> String.join("/", l));
    return Arbitraries.oneOf(body, body.map(b -> b + "/#"), Arbitraries.just("#"));
  }
}
