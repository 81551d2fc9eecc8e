package org.netpubsub.content.schema;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * The attributes every event carries, in order, and the dimensions used for spatial indexing.
 * Immutable. Every event carries a value for every attribute (see docs/content-model.md).
 */
public final class Schema {
  private final String name;
  private final List<Attribute> attributes;
  private final Map<String, Attribute> byName;
  private final List<Attribute> index;
  private final IndexLayout layout;
  private final int id;

  private Schema(
      String name, List<Attribute> attributes, List<Attribute> index, IndexLayout layout) {
    this.name = name;
    this.attributes = List.copyOf(attributes);
    this.byName = new HashMap<>();
    for (Attribute a : attributes) {
      if (byName.put(a.name(), a) != null) {
        throw new IllegalArgumentException("duplicate attribute " + a.name());
      }
    }
    this.index = List.copyOf(index);
    this.layout = layout;
    this.id = fingerprint(attributes);
    layout
        .problem(this)
        .ifPresent(
            problem -> {
              throw new IllegalArgumentException(problem);
            });
  }

  public static Builder builder(String name) {
    return new Builder(name);
  }

  public String name() {
    return name;
  }

  public List<Attribute> attributes() {
    return attributes;
  }

  public int size() {
    return attributes.size();
  }

  public Attribute attribute(int position) {
    return attributes.get(position);
  }

  public Optional<Attribute> attribute(String attributeName) {
    return Optional.ofNullable(byName.get(attributeName));
  }

  /** The dimensions used for spatial indexing, in the order their bits alternate. */
  public List<Attribute> indexDimensions() {
    return index;
  }

  /**
   * The same attributes with other index dimensions (dimension selection); the layout is kept if it
   * names only those dimensions, else the index is round-robin.
   */
  public Schema withIndex(List<String> names) {
    List<Attribute> dims = resolve(names);
    Schema kept = new Schema(name, attributes, dims, IndexLayout.ROUND_ROBIN);
    return layout.problem(kept).isEmpty() ? new Schema(name, attributes, dims, layout) : kept;
  }

  /** How the index's bits and string codes are laid out (round-robin unless the schema says). */
  public IndexLayout layout() {
    return layout;
  }

  /**
   * The same schema with {@code newLayout}.
   *
   * @throws IllegalArgumentException naming the field when the layout does not fit the index
   */
  public Schema withLayout(IndexLayout newLayout) {
    return new Schema(name, attributes, index, newLayout);
  }

  /**
   * A 32-bit fingerprint (CRC-32C) of the attributes' names, types and domains: two parties with
   * equal attribute lists agree on it without coordination; the event codec carries it.
   */
  public int id() {
    return id;
  }

  private List<Attribute> resolve(List<String> names) {
    LinkedHashSet<Attribute> out = new LinkedHashSet<>();
    for (String n : names) {
      Attribute a = byName.get(n);
      if (a == null) {
        throw new IllegalArgumentException("index names unknown attribute " + n);
      }
      if (!out.add(a)) {
        throw new IllegalArgumentException("index names " + n + " twice");
      }
    }
    return List.copyOf(out);
  }

  private static int fingerprint(List<Attribute> attributes) {
    StringBuilder canonical = new StringBuilder();
    for (Attribute a : attributes) {
      switch (a) {
        case IntAttribute i ->
            canonical.append(i.name()).append(":int:").append(i.min()).append(':').append(i.max());
        case StringAttribute s when s.isTopic() ->
            canonical
                .append(s.name())
                .append(":topic:")
                .append(s.maxLength())
                .append(':')
                .append(s.levels());
        case StringAttribute s ->
            canonical.append(s.name()).append(":string:").append(s.maxLength());
      }
      canonical.append(';');
    }
    CRC32C crc = new CRC32C();
    crc.update(canonical.toString().getBytes(StandardCharsets.UTF_8));
    return (int) crc.getValue();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Schema s
        && s.name.equals(name)
        && s.attributes.equals(attributes)
        && s.index.equals(index)
        && s.layout.equals(layout);
  }

  @Override
  public int hashCode() {
    return (attributes.hashCode() * 31 + index.hashCode()) * 31 + layout.hashCode();
  }

  @Override
  public String toString() {
    return "Schema["
        + name
        + ", "
        + attributes
        + ", index="
        + index.stream().map(Attribute::name).toList()
        + (layout.isRoundRobin() ? "" : ", layout=" + layout.segments() + " " + layout.codings())
        + "]";
  }

  /** Builds a schema attribute by attribute; positions follow the order of the calls. */
  public static final class Builder {
    private final String name;
    private final List<Attribute> attributes = new ArrayList<>();
    private List<String> index;
    private IndexLayout layout = IndexLayout.ROUND_ROBIN;

    private Builder(String name) {
      this.name = name;
    }

    public Builder intAttribute(String attributeName, long min, long max) {
      attributes.add(new IntAttribute(attributeName, attributes.size(), min, max));
      return this;
    }

    public Builder stringAttribute(String attributeName, int maxLength) {
      attributes.add(new StringAttribute(attributeName, attributes.size(), maxLength));
      return this;
    }

    /** A {@code type: topic} attribute: MQTT topic names of 1 to {@code levels} levels. */
    public Builder topicAttribute(String attributeName, int maxLength, int levels) {
      attributes.add(new StringAttribute(attributeName, attributes.size(), maxLength, levels));
      return this;
    }

    /** The index dimensions by name; default: every attribute, in schema order. */
    public Builder index(List<String> names) {
      this.index = List.copyOf(names);
      return this;
    }

    /** The index layout; default round-robin. */
    public Builder layout(IndexLayout newLayout) {
      this.layout = newLayout;
      return this;
    }

    public Schema build() {
      Schema all = new Schema(name, attributes, attributes, IndexLayout.ROUND_ROBIN);
      return (index == null ? all : all.withIndex(index)).withLayout(layout);
    }
  }
}
