package org.netpubsub.edge.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class LocalSubscriptionsTest {
  private final LocalSubscriptions local = new LocalSubscriptions(List.of("agent"));

  private List<FilterChange> sub(String c, String f) {
    return local.apply(new BrokerEvent.Subscribed(c, f));
  }

  @Test
  void aFilterIsPresentWhileAnyClientHoldsIt() {
    local.apply(new BrokerEvent.Connected("a", true));
    local.apply(new BrokerEvent.Connected("b", true));
    assertThat(sub("a", "x/+")).containsExactly(new FilterChange("x/+", true));
    assertThat(sub("b", "x/+")).isEmpty();
    assertThat(sub("a", "x/+")).isEmpty(); // resubscribing changes nothing
    assertThat(local.apply(new BrokerEvent.Unsubscribed("a", "x/+"))).isEmpty();
    assertThat(local.apply(new BrokerEvent.Unsubscribed("b", "x/+")))
        .containsExactly(new FilterChange("x/+", false));
    assertThat(local.filters()).isEmpty();
  }

  @Test
  void aCleanSessionEndsAtDisconnectAPersistentOneDoesNot() {
    local.apply(new BrokerEvent.Connected("clean", true));
    local.apply(new BrokerEvent.Connected("kept", false));
    sub("clean", "a");
    sub("kept", "b");
    assertThat(local.apply(new BrokerEvent.Disconnected("clean")))
        .containsExactly(new FilterChange("a", false));
    assertThat(local.apply(new BrokerEvent.Disconnected("kept"))).isEmpty();
    assertThat(local.filters()).containsExactly("b");
    // reconnecting with clean start ends the old session
    assertThat(local.apply(new BrokerEvent.Connected("kept", true)))
        .containsExactly(new FilterChange("b", false));
  }

  @Test
  void theAgentSysAndInvalidFiltersDoNotCount() {
    assertThat(sub("agent", "#")).isEmpty();
    assertThat(sub("c", "$SYS/broker/log/#")).isEmpty();
    assertThat(sub("c", "a/#/b")).isEmpty();
    assertThat(sub("c", "$share/g/s/+")).containsExactly(new FilterChange("s/+", true));
  }

  @Test
  void carriedOverFiltersStay() {
    assertThat(local.carryOver(List.of("old/#"))).containsExactly(new FilterChange("old/#", true));
    sub("c", "old/#");
    assertThat(local.apply(new BrokerEvent.Unsubscribed("c", "old/#"))).isEmpty();
    assertThat(local.filters()).containsExactly("old/#");
  }
}
