package org.netpubsub.content.schema;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class SchemaRoundTripPropertiesTest {
  @Property(tries = 500, edgeCases = EdgeCasesMode.NONE)
  void writtenSchemasLoadBackEqual(@ForAll("schemas") Schema schema) {
    String yaml = SchemaWriter.toYaml(schema);
    Schema back = SchemaLoader.parse(yaml, "random.yaml");
    assertThat(back).isEqualTo(schema);
    assertThat(back.id()).isEqualTo(schema.id());
    assertThat(back.indexDimensions()).isEqualTo(schema.indexDimensions());
  }

  @Provide
  Arbitrary<Schema> schemas() {
    return SchemaArbitraries.schemas(8, SchemaYamlReader.MAX_STRING_LENGTH);
  }
}
