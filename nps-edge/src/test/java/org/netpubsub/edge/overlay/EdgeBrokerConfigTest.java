package org.netpubsub.edge.overlay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.net.URI;
import org.junit.jupiter.api.Test;

class EdgeBrokerConfigTest {
  static EdgeBrokerConfig config() {
    return EdgeBrokerConfig.of(
        "e", "s", URI.create("dds:7"), new InetSocketAddress("127.0.0.1", 0));
  }

  @Test
  void theBufferIsBoundedByTheLargestGapAReceiverRepairs() {
    assertThat(config().withBuffer(EdgeBrokerConfig.MAX_BUFFER).buffer()).isEqualTo(4096);
    assertThatThrownBy(() -> config().withBuffer(4097))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("buffer must be at most 4096, not 4097");
    assertThatThrownBy(() -> config().withBuffer(0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void durableMessagesFitTheBuffer() {
    assertThat(config().withBuffer(4096).withDurable(2000).durable()).isEqualTo(2000);
    assertThatThrownBy(() -> config().withDurable(2000))
        .hasMessage("durable messages must be between 0 and 1024");
  }
}
