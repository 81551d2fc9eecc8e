package org.netpubsub.content.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.netpubsub.content.InvalidInputException;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.filter.FilterEvaluator;
import org.netpubsub.content.filter.FilterParser;

/** {@code type: topic} in schemas, events and filters, and the errors that name field and place. */
class TopicSchemaTest {
  private static final String YAML =
      "name: iot\nattributes:\n"
          + "  - {name: topic, type: topic, max_length: 32, levels: 3}\n"
          + "  - {name: v, type: int, min: 0, max: 9}\n";
  private static final Schema S = SchemaLoader.parse(YAML, "iot.yaml");

  @Test
  void aTopicAttributeRoundTripsAndHasItsOwnId() {
    StringAttribute t = (StringAttribute) S.attribute("topic").orElseThrow();
    assertThat(t.levels()).isEqualTo(3);
    assertThat(SchemaLoader.parse(SchemaWriter.toYaml(S), "again.yaml")).isEqualTo(S);
    Schema plain =
        Schema.builder("iot").stringAttribute("topic", 32).intAttribute("v", 0, 9).build();
    assertThat(S.id()).isNotEqualTo(plain.id());
  }

  @Test
  void filtersMatchAsMqtt() {
    Event e = Event.builder(S).set("topic", "home/kitchen/temp").set("v", 1).build();
    assertThat(FilterEvaluator.matches(FilterParser.parse(S, "topic matches \"home/+/temp\""), e))
        .isTrue();
    assertThat(FilterEvaluator.matches(FilterParser.parse(S, "topic matches \"home/#\""), e))
        .isTrue();
    assertThat(FilterEvaluator.matches(FilterParser.parse(S, "topic matches \"+/temp\""), e))
        .isFalse();
    assertThat(FilterEvaluator.matches(FilterParser.parse(S, "!(topic matches \"+/+/temp\")"), e))
        .isFalse();
  }

  @Test
  void badTopicsAreRefusedNamingTheField() {
    assertThatThrownBy(() -> Event.builder(S).set("topic", "home//temp"))
        .hasMessage("topic: topic 'home//temp' has an empty level 2");
    assertThatThrownBy(() -> FilterParser.parse(S, "v > 1 && topic matches \"a/#/b\""))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("column 24")
        .hasMessageContaining("topic: topic filter 'a/#/b': '#' must be the last level");
    assertThatThrownBy(() -> FilterParser.parse(S, "topic matches \"a/+/b/c\""))
        .hasMessageContaining("topic filter 'a/+/b/c' has 4 levels, at most 3");
    assertThatThrownBy(() -> FilterParser.parse(S, "v matches \"a\""))
        .hasMessageContaining("v is an int attribute; 'matches' needs a string");
    Schema plain = Schema.builder("p").stringAttribute("s", 8).build();
    assertThatThrownBy(() -> FilterParser.parse(plain, "s matches \"a/+\""))
        .hasMessageContaining("s is not a topic attribute; 'matches' needs a topic");
  }

  @Test
  void badSchemasAreRefusedNamingTheField() {
    assertThatThrownBy(
            () ->
                SchemaLoader.parse(
                    YAML.replace("levels: 3", "levels: 3, values: [a/b, \"c//d\"]"), "iot.yaml"))
        .hasMessageContaining("attribute 'topic'.values: topic 'c//d' has an empty level 2");
    assertThatThrownBy(() -> SchemaLoader.parse(YAML.replace("levels: 3", "levels: 17"), "x.yaml"))
        .hasMessageContaining("levels 17 is outside [1, 16]");
    assertThatThrownBy(
            () -> SchemaLoader.parse(YAML.replace("max_length: 32", "max_length: 0"), "x.yaml"))
        .hasMessageContaining("max_length 0 holds no topic");
  }
}
