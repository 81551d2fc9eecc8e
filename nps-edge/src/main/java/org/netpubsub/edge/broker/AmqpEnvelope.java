package org.netpubsub.edge.broker;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.impl.ContentHeaderPropertyWriter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * One AMQP message between edges, the payload of an edge datagram whose topic is {@code $amqp/…}
 * (docs/edge.md): exchange and routing key (each a length byte and UTF-8, ≤ 255 bytes), then AMQP
 * 0-9-1's own basic content header after its class id (weight 0, body size, property flags and
 * properties: content type, headers and the rest, field tables in every type), then the body,
 * nothing after. Pure: decoding any bytes returns an envelope or throws {@link DatagramException}
 * ({@code bad_envelope}).
 */
public record AmqpEnvelope(
    String exchange, String routingKey, AMQP.BasicProperties properties, byte[] body) {
  public AmqpEnvelope {
    Objects.requireNonNull(exchange, "exchange");
    Objects.requireNonNull(routingKey, "routingKey");
    Objects.requireNonNull(properties, "properties");
    Objects.requireNonNull(body, "body");
  }

  public byte[] encode() throws DatagramException {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + body.length);
      DataOutputStream out = new DataOutputStream(bytes);
      shortstr(out, exchange, "exchange");
      shortstr(out, routingKey, "routing key");
      out.writeShort(0); // weight
      out.writeLong(body.length);
      properties.writePropertiesTo(new ContentHeaderPropertyWriter(out));
      out.write(body);
      out.flush();
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new DatagramException("too_large", "AMQP properties: " + e.getMessage());
    }
  }

  public static AmqpEnvelope decode(byte[] payload) throws DatagramException {
    try {
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload));
      String exchange = shortstr(in);
      String routingKey = shortstr(in);
      AMQP.BasicProperties properties = new AMQP.BasicProperties(in); // weight, size, properties
      long size = properties.getBodySize();
      if (size != in.available()) {
        throw new DatagramException("bad_envelope", "AMQP body size does not match");
      }
      return new AmqpEnvelope(exchange, routingKey, properties, in.readAllBytes());
    } catch (IOException | RuntimeException e) {
      throw new DatagramException("bad_envelope", "not an AMQP envelope: " + e);
    }
  }

  private static void shortstr(DataOutputStream out, String s, String what)
      throws IOException, DatagramException {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    if (b.length > 255) {
      throw new DatagramException("too_large", "AMQP " + what + " over 255 bytes");
    }
    out.writeByte(b.length);
    out.write(b);
  }

  private static String shortstr(DataInputStream in) throws IOException {
    byte[] b = new byte[in.readUnsignedByte()];
    in.readFully(b);
    return StandardCharsets.UTF_8
        .newDecoder()
        .decode(java.nio.ByteBuffer.wrap(b))
        .toString(); // malformed UTF-8 throws
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof AmqpEnvelope e
        && exchange.equals(e.exchange)
        && routingKey.equals(e.routingKey)
        && properties.toString().equals(e.properties.toString())
        && Arrays.equals(body, e.body);
  }

  @Override
  public int hashCode() {
    return Objects.hash(exchange, routingKey, Arrays.hashCode(body));
  }
}
