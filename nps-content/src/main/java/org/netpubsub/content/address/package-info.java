/**
 * IPv6 addresses as values ({@link org.netpubsub.content.address.Ipv6Address}, the project's one
 * RFC 5952 formatter) and where Camus routing packs query fields into a destination ({@link
 * org.netpubsub.content.address.FieldPacking}, {@link
 * org.netpubsub.content.address.SchemaAddress}). Pure: shared by the OpenFlow model, the controller
 * and the client library.
 */
package org.netpubsub.content.address;
