import { type ConversionConfig, toJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';

const config: ConversionConfig = {
  target: 'draft-2020-12',
  typeMode: 'input',
  errorMode: 'ignore',
  overrideAction: ({ valibotAction, jsonSchema }) => {
    // `format: email` would promise more than validation takes (`{a%b~c@example.com`): state valibot's own rule.
    if (valibotAction.type === 'email') {
      const { format: _email, ...rest } = jsonSchema as Record<string, unknown>;
      return { ...rest, pattern: v.EMAIL_REGEX.source, examples: ['ann@example.com'] };
    }
    // Characters, not UTF-16 code units (kernel/api/schemas.ts maxChars): what JSON Schema's maxLength means.
    if (valibotAction.type === 'max_chars') {
      return { ...jsonSchema, maxLength: (valibotAction as unknown as { max: number }).max };
    }
    return undefined;
  },
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
