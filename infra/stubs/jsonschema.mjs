/**
 * Replaces `jsonschema` in Lambda bundles (BUNDLE_ALIASES in infra/constructs/bundle.ts). ElectroDB
 * uses it twice: to check an entity's model when the entity is built, and to tell a model from an
 * entity instance when a Service is given either (an instance has no top-level `attributes`). Our
 * models are constants in packages/core, each built and checked with the real validator by
 * test/foundation/entity-models.test.ts on every CI run; the ~28 KB validator and its run in every
 * Lambda's first request buy nothing more. This keeps what tells the two apart: each schema's
 * `type`, `required` and nested `properties`; references, patterns and formats are not followed.
 */
function problems(value, schema, property) {
  if (schema.type === 'string' && typeof value !== 'string') return [{ property, message: 'is not of a type(s) string' }];
  if (schema.type === 'object' && (typeof value !== 'object' || value === null || Array.isArray(value))) {
    return [{ property, message: 'is not of a type(s) object' }];
  }
  if (schema.type !== 'object' || !schema.properties) return [];
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  return Object.entries(schema.properties).flatMap(([name, child]) => {
    const path = `${property}.${name}`;
    if (value[name] === undefined) return required.has(name) || child.required === true ? [{ property: path, message: 'is required' }] : [];
    return problems(value[name], child, path);
  });
}

export class Validator {
  addSchema() {}
  validate(instance, schema) {
    const errors = problems(instance, schema, 'instance');
    return { valid: errors.length === 0, errors };
  }
}
Validator.prototype.customFormats = {};
