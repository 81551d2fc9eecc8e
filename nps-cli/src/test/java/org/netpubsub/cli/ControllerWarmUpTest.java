package org.netpubsub.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.controller.api.ControllerApi;
import org.netpubsub.controller.app.ControllerConfig;
import org.netpubsub.controller.app.NetworkController;
import org.netpubsub.controller.pubsub.PubSubLimits;
import org.netpubsub.controller.pubsub.PubSubRequest;
import org.netpubsub.controller.pubsub.PubSubService;

/**
 * The start-up warm-up runs its requests through a throwaway controller and leaves nothing behind:
 * a controller started after it has the same state and the same meters as one started without it.
 */
class ControllerWarmUpTest {
  static final Schema SCHEMA = SchemaFiles.load(Path.of("../examples/schemas/quotes.yaml"));

  @Test
  void runsTheRequestsAndLeavesTheNextControllerAsWithoutIt() throws Exception {
    List<String> cold = controllerAfterStart();

    ControllerWarmUp.Result r =
        ControllerWarmUp.run(
            new SpatialIndex(SCHEMA, 24), PubSubLimits.DEFAULTS, null, 40, Duration.ofSeconds(60));

    assertThat(r.requests()).isEqualTo(40);
    assertThat(r.refused()).as(r.firstRefusal()).isZero();
    assertThat(r.nanos()).isGreaterThanOrEqualTo(r.setupNanos()).isPositive();
    assertThat(controllerAfterStart()).isEqualTo(cold);
  }

  @Test
  void aBudgetTooShortForTheSetUpEndsItWithAnErrorAtOnce() {
    long start = System.nanoTime();

    // ControllerCommand logs this and starts cold
    assertThatThrownBy(
            () ->
                ControllerWarmUp.run(
                    new SpatialIndex(SCHEMA, 24),
                    PubSubLimits.DEFAULTS,
                    null,
                    1_000_000,
                    Duration.ofMillis(1)))
        .isInstanceOf(IllegalStateException.class);
    assertThat(System.nanoTime() - start).isLessThan(Duration.ofSeconds(30).toNanos());
  }

  /** A controller's state and pub/sub meters right after its start (the nps_ meters' samples). */
  private static List<String> controllerAfterStart() throws Exception {
    NetworkController controller =
        NetworkController.start(ControllerConfig.defaults().withPort("127.0.0.1", 0));
    PubSubService service =
        PubSubService.attach(controller, new SpatialIndex(SCHEMA, 24), PubSubLimits.DEFAULTS);
    ControllerApi api =
        ControllerApi.start(controller, Optional.of(service), new InetSocketAddress("::1", 0));
    try {
      List<String> state =
          new java.util.ArrayList<>(
              api.metrics().scrape().lines().filter(l -> l.startsWith("nps_")).sorted().toList());
      state.add("switches " + controller.topology().switches());
      state.add("hosts " + controller.topology().hosts());
      state.add("requests " + service.requests(PubSubRequest.Kind.SUBSCRIPTION));
      state.add("advertisements " + service.requests(PubSubRequest.Kind.ADVERTISEMENT));
      return state;
    } finally {
      api.close();
      service.close();
      controller.close();
    }
  }
}
