import { type ConversionConfig, toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';

const config: ConversionConfig = {
  target: 'draft-2020-12',
  typeMode: 'input',
  errorMode: 'ignore',
  overrideSchema: ({ valibotSchema }) => {
    // Uploaded files (multipart) are instances (Buffer, parser objects): document them as binary.
    if (valibotSchema.type === 'instance' || valibotSchema.type === 'blob' || valibotSchema.type === 'file') {
      return { type: 'string', format: 'binary' };
    }
    return undefined;
  },
};

/** JSON Schema (2020-12, as OpenAPI 3.1 uses) of a valibot schema, without the `$schema` marker. */
export function jsonSchemaOf(schema: v.GenericSchema): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = toJsonSchema(schema, config) as Record<string, unknown>;
  return rest;
}
