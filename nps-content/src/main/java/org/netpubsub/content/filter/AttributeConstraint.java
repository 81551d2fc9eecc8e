package org.netpubsub.content.filter;

import org.netpubsub.content.schema.Attribute;

/** Everything one conjunction demands of one attribute, in canonical form. */
public sealed interface AttributeConstraint permits IntConstraint, StringConstraint {
  Attribute attribute();
}
