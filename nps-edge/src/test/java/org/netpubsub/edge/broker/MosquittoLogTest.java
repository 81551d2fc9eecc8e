package org.netpubsub.edge.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Log lines as Mosquitto 2.0.11 publishes them (captured from the installed broker). */
class MosquittoLogTest {
  private static Optional<BrokerEvent> parse(String topic, String line) {
    return MosquittoLog.parse(topic, line);
  }

  @Test
  void subscribeAndUnsubscribeLines() {
    assertThat(parse(MosquittoLog.SUBSCRIBE_TOPIC, "1795483399: c1 0 a/+"))
        .contains(new BrokerEvent.Subscribed("c1", "a/+"));
    assertThat(parse(MosquittoLog.SUBSCRIBE_TOPIC, "c1 2 with space/#"))
        .contains(new BrokerEvent.Subscribed("c1", "with space/#"));
    assertThat(parse(MosquittoLog.UNSUBSCRIBE_TOPIC, "1795483399: c1 b/#"))
        .contains(new BrokerEvent.Unsubscribed("c1", "b/#"));
  }

  @Test
  void connectsWithTheirCleanStartFlag() {
    assertThat(
            parse(
                MosquittoLog.NOTICE_TOPIC,
                "1795483399: New client connected from 127.0.0.1:42474 as c1 (p2, c1, k60)."))
        .contains(new BrokerEvent.Connected("c1", true));
    assertThat(
            parse(
                MosquittoLog.NOTICE_TOPIC,
                "1: New client connected from ::1:4 as c2 (p5, c0, k60, u'bob')."))
        .contains(new BrokerEvent.Connected("c2", false));
  }

  @Test
  void everyWordingOfADisconnect() {
    for (String line :
        List.of(
            "1: Client c1 disconnected.",
            "1: Client c1 closed its connection.",
            "1: Client c1 has exceeded timeout, disconnecting.",
            "1: Client c1 disconnected due to protocol error.",
            "1: Socket error on client c1, disconnecting.",
            "1: Client c1 already connected, closing old connection.")) {
      assertThat(parse(MosquittoLog.NOTICE_TOPIC, line))
          .as(line)
          .contains(new BrokerEvent.Disconnected("c1"));
    }
  }

  @Test
  void otherLinesAndTopicsAreIgnored() {
    assertThat(parse(MosquittoLog.NOTICE_TOPIC, "1: New connection from 127.0.0.1:1 on port 1."))
        .isEmpty();
    assertThat(parse("$SYS/broker/log/I", "1: c1 0 a")).isEmpty();
    assertThat(parse(MosquittoLog.SUBSCRIBE_TOPIC, "garbage")).isEmpty();
  }
}
