package org.netpubsub.content.event;

import java.math.BigInteger;
import java.util.List;
import org.netpubsub.content.schema.Attribute;
import org.netpubsub.content.schema.IntAttribute;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.content.schema.StringAttribute;

/** The checks a value written by a person must pass, with the words that explain a failure. */
final class AttributeValues {
  private AttributeValues() {}

  /** Why {@code value} is not a value of {@code a}, or null when it is. */
  static String intProblem(IntAttribute a, BigInteger value) {
    if (value.bitLength() > 63 || !a.contains(value.longValue())) {
      return "outside the domain [" + a.min() + ", " + a.max() + "] of " + a.name();
    }
    return null;
  }

  /** Why {@code value} is not a value of {@code a}, or null when it is. */
  static String stringProblem(StringAttribute a, String value) {
    int length = Utf8.length(value);
    if (length < 0) {
      return "not valid Unicode (an unpaired surrogate)";
    }
    if (length > a.maxLength()) {
      return length
          + " bytes of UTF-8, longer than max_length "
          + a.maxLength()
          + " of "
          + a.name();
    }
    String topic = a.topicProblem(value);
    return topic == null ? null : topic + " (" + a.name() + ")";
  }

  static String unknown(Schema schema, String name) {
    return "unknown attribute '"
        + name
        + "'; the attributes of "
        + schema.name()
        + " are "
        + String.join(", ", names(schema.attributes()));
  }

  static List<String> names(List<Attribute> attributes) {
    return attributes.stream().map(Attribute::name).toList();
  }
}
