package org.netpubsub.content.filter;

import java.util.SortedSet;
import org.netpubsub.content.schema.StringAttribute;
import org.netpubsub.content.schema.Topics;

/**
 * What a conjunction demands of a string attribute. {@code equalTo} is null when no equality is
 * demanded. When it is set, the other sets are empty (they are decided against it). Every set is
 * sorted, so equal constraints are equal records. {@code patterns} are MQTT topic filters with a
 * wildcard (topic attributes only).
 */
public record StringConstraint(
    StringAttribute attribute,
    String equalTo,
    SortedSet<String> notEqualTo,
    SortedSet<String> prefixes,
    SortedSet<String> suffixes,
    SortedSet<String> contains,
    SortedSet<String> notPrefixes,
    SortedSet<String> notSuffixes,
    SortedSet<String> notContains,
    SortedSet<String> patterns,
    SortedSet<String> notPatterns)
    implements AttributeConstraint {

  /** Whether {@code value} satisfies this constraint. */
  public boolean accepts(String value) {
    if (equalTo != null) {
      return equalTo.equals(value);
    }
    return !notEqualTo.contains(value)
        && prefixes.stream().allMatch(value::startsWith)
        && suffixes.stream().allMatch(value::endsWith)
        && contains.stream().allMatch(value::contains)
        && notPrefixes.stream().noneMatch(value::startsWith)
        && notSuffixes.stream().noneMatch(value::endsWith)
        && notContains.stream().noneMatch(value::contains)
        && patterns.stream().allMatch(p -> Topics.matches(p, value))
        && notPatterns.stream().noneMatch(p -> Topics.matches(p, value));
  }
}
