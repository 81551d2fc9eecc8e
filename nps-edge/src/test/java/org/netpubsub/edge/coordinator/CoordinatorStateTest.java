package org.netpubsub.edge.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;

class CoordinatorStateTest {
  private final CoordinatorState s = new CoordinatorState(0);
  private static final Edge A = new Edge("a", "::1", 1001);
  private static final Edge B = new Edge("b", "::1", 1002);
  private static final Edge C = new Edge("c", "::1", 1003);

  private List<String> targets(String topic, String origin, boolean retain) {
    return s.route(topic, origin, retain).targets().stream().map(Edge::name).toList();
  }

  @Test
  void membersAreEdgesWithAMatchingFilterMinusTheOrigin() {
    s.register(A);
    s.register(B);
    s.register(C);
    s.updateFilters("a", List.of("x/+"), List.of());
    s.updateFilters("b", List.of("x/#"), List.of());
    s.updateFilters("c", List.of("y"), List.of());
    assertThat(targets("x/1", "a", false)).containsExactly("b");
    assertThat(targets("x/1", "c", false)).containsExactly("a", "b");
    assertThat(targets("z", "a", false)).isEmpty();
    // retained: every other edge, so a later subscriber anywhere finds it
    assertThat(targets("z", "a", true)).containsExactly("b", "c");
  }

  @Test
  void aFilterChangeIsOwedToTheAgentsHoldingAMatchingRoute() {
    s.register(A);
    s.register(B);
    s.register(C);
    s.poll("a", s.version());
    s.poll("c", s.version());
    s.route("x/1", "a", false);
    s.route("q", "c", false);
    CoordinatorState.Change ch = s.updateFilters("b", List.of("x/+"), List.of());
    assertThat(ch.mustAck()).containsExactly("a");
    assertThat(s.acknowledged("a", ch.version())).isFalse();
    CoordinatorState.Changes owed = s.poll("a", ch.version() - 1).orElseThrow();
    assertThat(owed.topics()).containsExactly("x/1");
    assertThat(owed.flush()).isFalse();
    assertThat(s.poll("a", owed.version())).isEmpty();
    assertThat(s.acknowledged("a", ch.version())).isTrue();
    // the same filter again changes nothing
    assertThat(s.updateFilters("b", List.of("x/+"), List.of()).mustAck()).isEmpty();
  }

  @Test
  void aNewEdgeFlushesTheOthersAndARestoredEdgeIsOwedAFlush() {
    s.register(A);
    s.poll("a", s.version());
    CoordinatorState.Change ch = s.register(B);
    assertThat(ch.mustAck()).containsExactly("a");
    assertThat(s.poll("a", 0).orElseThrow().flush()).isTrue();
    // the same edge registering again (agent restart) keeps its filters and flushes nobody
    s.updateFilters("b", List.of("k"), List.of());
    assertThat(s.register(B).mustAck()).isEmpty();
    assertThat(s.filters("b")).containsExactly("k");

    CoordinatorState restarted = new CoordinatorState(s.version());
    restarted.restore(A, List.of());
    assertThat(restarted.version()).isGreaterThan(s.version());
    assertThat(restarted.poll("a", s.version()).orElseThrow().flush()).isTrue();
  }

  @Test
  void badInputIsRefusedAndChangesNothing() {
    s.register(A);
    long v = s.version();
    assertThatThrownBy(() -> s.updateFilters("a", List.of("x/#/y"), List.of()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> s.updateFilters("nobody", List.of("x"), List.of()))
        .isInstanceOf(NoSuchElementException.class);
    assertThatThrownBy(() -> s.route("x/+", "a", false))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(s.version()).isEqualTo(v);
    assertThat(s.filters("a")).isEmpty();
    assertThatThrownBy(() -> new Edge("bad name", "::1", 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Edge("a", "example.com", 1))
        .hasMessageContaining("must be an IPv6 or IPv4 address");
    assertThatThrownBy(() -> new Edge("a", "1.2.3.400", 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(new Edge("a", "fd6e:7073:1::2", 1).address()).isEqualTo("fd6e:7073:1::2");
  }

  @Test
  void leavingRemovesTheEdgeFromRoutes() {
    s.register(A);
    s.register(B);
    s.updateFilters("b", List.of("#"), List.of());
    assertThat(targets("t", "a", false)).containsExactly("b");
    CoordinatorState.Change ch = s.leave("b");
    assertThat(ch.changedFilters()).containsExactly("#");
    assertThat(targets("t", "a", false)).isEmpty();
    assertThat(targets("t", "a", true)).isEmpty();
  }
}
