package org.netpubsub.edge.amqp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.netpubsub.edge.mqtt.TopicFilters;

/**
 * AMQP topic matching against a regular-expression twin, and the coordinator filter of a binding
 * against AMQP matching: never a miss, exact when the binding's {@code #} is last.
 */
class AmqpTopicsProperties {
  @Property(tries = 2000)
  void matchingAgreesWithARegex(@ForAll("bindings") String binding, @ForAll("keys") String key) {
    assertThat(AmqpTopics.matches(binding, key))
        .isEqualTo(twin(binding).matcher(dotted(key)).matches());
  }

  @Property(tries = 2000)
  void theFilterCoversTheBindingAndIsExactWhenHashIsLast(
      @ForAll("bindings") String binding, @ForAll("keys") String key) {
    boolean amqp = AmqpTopics.matches(binding, key);
    String filter = TopicFilters.checkFilter(AmqpTopics.filter("ex/1", binding));
    String topic = TopicFilters.checkTopic(AmqpTopics.topic("ex/1", key));
    boolean mqtt = TopicFilters.matches(filter, topic);
    if (amqp) {
      assertThat(mqtt).as(filter + " vs " + topic).isTrue();
    }
    if (AmqpTopics.exact(binding)) {
      assertThat(mqtt).as(filter + " vs " + topic).isEqualTo(amqp);
    }
    assertThat(TopicFilters.matches(AmqpTopics.filter("other", binding), topic)).isFalse();
  }

  /** Each word prefixed by a dot: {@code *} is one such word, {@code #} any number. */
  private static Pattern twin(String binding) {
    StringBuilder b = new StringBuilder();
    for (String w : AmqpTopics.words(binding)) {
      b.append(
          switch (w) {
            case "*" -> "\\.[^.]*";
            case "#" -> "(\\.[^.]*)*";
            default -> "\\." + Pattern.quote(w);
          });
    }
    return Pattern.compile(b.toString());
  }

  private static String dotted(String key) {
    StringBuilder b = new StringBuilder();
    AmqpTopics.words(key).forEach(w -> b.append('.').append(w));
    return b.toString();
  }

  @Provide
  Arbitrary<String> keys() {
    return Arbitraries.of("a", "b", "", "+", "#x", "a/b", "%")
        .list()
        .ofMaxSize(4)
        .map(l -> String.join(".", l));
  }

  @Provide
  Arbitrary<String> bindings() {
    return Arbitraries.of("a", "b", "", "*", "#", "+", "a/b")
        .list()
        .ofMaxSize(4)
        .map((List<String> l) -> String.join(".", l));
  }
}
