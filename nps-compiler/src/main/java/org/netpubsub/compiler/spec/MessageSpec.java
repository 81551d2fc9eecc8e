package org.netpubsub.compiler.spec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.netpubsub.content.address.SchemaAddress;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.schema.Attribute;
import org.netpubsub.content.schema.IntAttribute;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.content.schema.StringAttribute;

/**
 * A message format as the compiler sees it (Camus Figure 4): the schema that filters are written
 * against, and the query fields the tables match on, in BDD variable order. Attributes that are no
 * query field can still appear in filters; the tables ignore those constraints (a superset match,
 * see {@code ConstraintDomains}).
 */
public final class MessageSpec {
  private final String name;
  private final Schema schema;
  private final List<QueryField> fields;
  private final int[] fieldOfAttribute;

  private MessageSpec(String name, Schema schema, List<QueryField> fields) {
    this.name = Objects.requireNonNull(name, "name");
    this.schema = Objects.requireNonNull(schema, "schema");
    this.fields = List.copyOf(fields);
    this.fieldOfAttribute = new int[schema.size()];
    Arrays.fill(fieldOfAttribute, -1);
    for (int f = 0; f < this.fields.size(); f++) {
      QueryField q = this.fields.get(f);
      Attribute a = schema.attribute(q.attribute());
      if (!a.name().equals(q.name())) {
        throw new IllegalArgumentException(
            "field " + q.name() + " names attribute " + a.name() + " of " + schema.name());
      }
      if (fieldOfAttribute[q.attribute()] >= 0) {
        throw new IllegalArgumentException("attribute " + q.name() + " is queried twice");
      }
      boolean kindFits =
          q.kind() == FieldKind.INT ? a instanceof IntAttribute : a instanceof StringAttribute;
      if (!kindFits) {
        throw new IllegalArgumentException(
            "field " + q.name() + " is " + q.kind() + " but the attribute is not");
      }
      fieldOfAttribute[q.attribute()] = f;
    }
  }

  public static MessageSpec of(String name, Schema schema, List<QueryField> fields) {
    return new MessageSpec(name, schema, fields);
  }

  /**
   * Every attribute of a netpubsub schema as a query field, in schema order, matched by range: an
   * int over its domain (value − min, as many bits as the domain needs), a string by its first 8
   * bytes (NUL padded); the widths are {@link SchemaAddress#width}'s, so publishers address events
   * without the compiler.
   */
  public static MessageSpec fromSchema(Schema schema) {
    List<QueryField> fields = new ArrayList<>();
    for (Attribute a : schema.attributes()) {
      fields.add(
          switch (a) {
            case IntAttribute i ->
                new QueryField(
                    i.name(),
                    FieldKind.INT,
                    SchemaAddress.width(i),
                    MatchKind.RANGE,
                    (byte) 0,
                    i.min(),
                    i.position());
            case StringAttribute s ->
                new QueryField(
                    s.name(),
                    FieldKind.STRING,
                    SchemaAddress.width(s),
                    MatchKind.RANGE,
                    (byte) 0,
                    0,
                    s.position());
          });
    }
    return new MessageSpec(schema.name(), schema, fields);
  }

  public String name() {
    return name;
  }

  public Schema schema() {
    return schema;
  }

  /** The query fields, in BDD variable order. */
  public List<QueryField> fields() {
    return fields;
  }

  public QueryField field(int index) {
    return fields.get(index);
  }

  /** The index of the query field carrying the attribute at {@code position}, if there is one. */
  public Optional<Integer> fieldOf(int attributePosition) {
    int f = fieldOfAttribute[attributePosition];
    return f < 0 ? Optional.empty() : Optional.of(f);
  }

  /** The query field values of an event of this spec's schema, in field order. */
  public long[] values(Event event) {
    long[] out = new long[fields.size()];
    for (int f = 0; f < out.length; f++) {
      QueryField q = fields.get(f);
      out[f] =
          q.kind() == FieldKind.INT
              ? q.encode(event.intValue(q.attribute()))
              : q.encode(event.stringValue(q.attribute()));
    }
    return out;
  }

  @Override
  public String toString() {
    return "spec " + name + " " + fields.stream().map(QueryField::name).toList();
  }
}
