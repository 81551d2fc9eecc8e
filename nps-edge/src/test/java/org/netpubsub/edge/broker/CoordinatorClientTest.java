package org.netpubsub.edge.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;
import org.netpubsub.edge.coordinator.Edge;

/** What an agent writes when it registers at the coordinator (no coordinator: the body alone). */
class CoordinatorClientTest {
  @Test
  void registrationWritesIpv6InRfc5952FormAndTheCoordinatorStillTakesTheOlderForm() {
    InetSocketAddress at = new InetSocketAddress("2001:db8:0:0:0:0:0:1", 9000);
    assertThat(CoordinatorClient.registration(at).toString())
        .isEqualTo("{\"address\":\"2001:db8::1\",\"port\":9000}");
    assertThat(CoordinatorClient.registration(new InetSocketAddress("10.0.0.1", 9000)).toString())
        .isEqualTo("{\"address\":\"10.0.0.1\",\"port\":9000}");
    // an older agent's registration (the JDK's getHostAddress), as a store may still hold it
    assertThatCode(() -> new Edge("rome", "2001:db8:0:0:0:0:0:1", 9000)).doesNotThrowAnyException();
  }
}
