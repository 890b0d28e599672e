/**
 * Replaces `jsonschema` in Lambda bundles (BUNDLE_ALIASES in infra/constructs/bundle.ts). ElectroDB
 * uses it for one thing: checking an entity's model against its model schema when the entity is
 * built. Our models are constants in packages/core; every one of them is built and checked with the
 * real validator by test/foundation/entity-models.test.ts on every CI run, so checking them again in
 * each Lambda's first request only costs ~28 KB of code at init and the time to run it.
 */
export class Validator {
  customFormats = {};
  addSchema() {}
  validate() {
    return { valid: true, errors: [] };
  }
}
Validator.prototype.customFormats = {};
