package org.netpubsub.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.MembershipKey;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.event.EventCodec;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.content.schema.Schema;

/**
 * Without the destination override a publisher sends to the event's content address and the event
 * port, out of the interface that holds the host address (the machine's unique global IPv6 address;
 * skipped without one), and a socket on this host that joined the group receives the kernel's
 * looped-back copy. Loopback cannot stand in: Linux has no multicast route on lo.
 */
class MulticastSendTest {
  @Test
  void sendsToTheContentAddressThroughTheHostsInterface() throws Exception {
    Schema schema = TestSchemas.quotes();
    SpatialIndex index = new SpatialIndex(schema, TestSchemas.INDEX_LENGTH);
    Event event =
        Event.builder(schema).set("symbol", "M").set("price", 650).set("volume", 550).build();
    Inet6Address group = index.address(event).address();
    Inet6Address host;
    try {
      host = HostAddresses.detect(java.net.URI.create("http://127.0.0.1:1"));
    } catch (IllegalArgumentException e) {
      Assumptions.abort("no unique global IPv6 address to send multicast from: " + e.getMessage());
      return;
    }
    NetworkInterface nif = HostAddresses.interfaceOf(host);
    try (DatagramChannel receiver = DatagramChannel.open(StandardProtocolFamily.INET6);
        StubController stub = StubController.start(schema, TestSchemas.INDEX_LENGTH);
        ControllerClient client = ControllerClient.of(stub.url())) {
      receiver.setOption(StandardSocketOptions.SO_REUSEADDR, true);
      receiver.bind(new InetSocketAddress(0));
      int port = ((InetSocketAddress) receiver.getLocalAddress()).getPort();
      MembershipKey key;
      try {
        key = receiver.join(group, nif);
      } catch (java.io.IOException e) {
        Assumptions.abort("no multicast membership on " + nif.getName() + ": " + e);
        return;
      }
      PubSubConfig config = new PubSubConfig(schema, index, port);
      // Hop limit 1: the datagram does not leave the link; the kernel loops a copy back to us.
      try (Publisher pub =
          Publisher.builder(client).host(host).config(config).multicastHops(1).build()) {
        CompletableFuture<ByteBuffer> got =
            CompletableFuture.supplyAsync(
                () -> {
                  ByteBuffer buf = ByteBuffer.allocate(EventCodec.MAX_SIZE);
                  try {
                    receiver.receive(buf);
                  } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                  }
                  return buf.flip();
                });
        Event sent = pub.publish(event);
        ByteBuffer datagram;
        try {
          datagram = got.get(5 * (long) Poll.SCALE, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
          Assumptions.abort("no multicast loopback on " + nif.getName() + " here");
          return;
        }
        assertThat(new EventCodec(schema).decode(datagram)).isEqualTo(sent);
      }
      key.drop();
    }
  }
}
