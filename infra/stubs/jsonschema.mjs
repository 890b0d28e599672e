/**
 * Replaces `jsonschema` in Lambda bundles (BUNDLE_ALIASES in infra/constructs/bundle.ts). ElectroDB uses
 * it only to check entity models against its model schema when an entity is built; our models are
 * fixed in code and checked by the real validator in every test run (tests are not bundled), so in a
 * Lambda the check is repeated work that costs 28 KB and its load time at every cold start.
 */
export class Validator {
  addSchema() {}
  validate() {
    return { valid: true, errors: [] };
  }
}
Validator.prototype.customFormats = {};

export default { Validator };
