import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Entity, Service } from 'electrodb';
import { describe, expect, it } from 'vitest';

/**
 * Lambda bundles replace jsonschema, which ElectroDB uses only to check a model when an entity is
 * built (infra/stubs/jsonschema.mjs). This is where every model of the core is checked instead: each
 * entity and service is built here, unbundled, with the real validator.
 */
const SRC = path.resolve(import.meta.dirname, '../../packages/core/src');
const modelFiles = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter(
  (file) =>
    file.endsWith('.ts') &&
    /export const \w+ = lazy\(\s*\(\) =>\s*new (Entity|Service)\(/.test(readFileSync(path.join(SRC, file), 'utf8')),
);

describe('ElectroDB models', () => {
  it('are found in every area that has some', () => {
    expect(modelFiles.length).toBeGreaterThanOrEqual(12);
  });

  it('are checked by the real validator when built unbundled (a broken model throws)', () => {
    const broken = () =>
      new Entity({
        model: { entity: 'broken', version: '1', service: 'helpdesk' },
        attributes: { id: { type: 'string', required: 'yes' as unknown as boolean } },
        indexes: { primary: { pk: { field: 'pk', composite: ['id'] }, sk: { field: 'sk', composite: [] } } },
      });
    expect(broken).toThrow(/required/);
  });

  it.each(modelFiles)('%s: every entity and service builds', async (file) => {
    const module = (await import(path.join(SRC, file))) as Record<string, unknown>;
    // A lazy() value builds on first touch; its prototype is the built entity's or service's.
    const built = Object.values(module).filter((value) => {
      if (typeof value !== 'object' || value === null) return false;
      const proto = Reflect.getPrototypeOf(value);
      return proto === Entity.prototype || proto === Service.prototype;
    });
    expect(built.length, `${file} exports no entity or service`).toBeGreaterThan(0);
  });
});
