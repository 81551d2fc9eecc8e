package org.netpubsub.controller.pubsub;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.controller.testing.OneSwitchNetwork;

/**
 * A request configured on the controller loop reports its stages once each, in order, and they add
 * up to its response time (what the per-stage timers of issue 22's breakdown rely on).
 */
class RequestStagesTest {
  static final Schema QUOTES =
      Schema.builder("quotes").intAttribute("price", 0, 100_000).index(List.of("price")).build();

  private OneSwitchNetwork net;
  private PubSubService service;
  private final List<RequestStages.Stage> stages = new ArrayList<>();
  private final List<Long> nanos = new ArrayList<>();

  @BeforeEach
  void start() throws Exception {
    net = OneSwitchNetwork.startController();
    service =
        PubSubService.attach(net.controller(), new SpatialIndex(QUOTES, 12), PubSubLimits.DEFAULTS);
    service.onStages(
        (stage, n) -> {
          synchronized (stages) {
            stages.add(stage);
            nanos.add(n);
          }
        });
    net.connectSwitch(2);
  }

  @AfterEach
  void stop() {
    net.close();
  }

  @Test
  void theStagesOfEachRequestAddUpToItsResponseTime() throws Exception {
    String host1 = OneSwitchNetwork.host(1).address().toString();
    String host2 = OneSwitchNetwork.host(2).address().toString();
    List<RequestOutcome> outcomes = new ArrayList<>();
    outcomes.add(service.advertise(host1, "true").get(10, TimeUnit.SECONDS));
    outcomes.add(service.subscribe(host2, "price > 10", 7073).get(10, TimeUnit.SECONDS));
    assertThat(outcomes.get(1).flowChanges()).isPositive(); // it went to the switch
    RequestStages.Stage[] order = RequestStages.Stage.values();
    synchronized (stages) {
      assertThat(stages).hasSize(order.length * outcomes.size());
      for (int i = 0; i < outcomes.size(); i++) {
        long sum = 0;
        for (int s = 0; s < order.length; s++) {
          int at = i * order.length + s;
          assertThat(stages.get(at)).isEqualTo(order[s]);
          assertThat(nanos.get(at)).isNotNegative();
          sum += nanos.get(at);
        }
        assertThat(sum).isEqualTo(outcomes.get(i).responseNanos());
      }
    }
  }
}
