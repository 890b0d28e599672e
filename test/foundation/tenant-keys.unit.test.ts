import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Entity } from 'electrodb';
import { describe, expect, it } from 'vitest';
import { tenantAttributes } from '../../packages/core/src/kernel/db/tenant-attributes.js';

/**
 * Tenant isolation lives in the keys: every entity that stores project records (it requires a
 * project and an environment) starts the partition key of every index with `projectId` then `env`, so no query can
 * read across a project or an environment, and an id from another tenant is simply not found.
 */
const SRC = path.resolve(import.meta.dirname, '../../packages/core/src');
const modelFiles = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter(
  (file) => file.endsWith('.ts') && /new Entity\(/.test(readFileSync(path.join(SRC, file), 'utf8')),
);

type Schema = {
  attributes: Record<string, { type: unknown; required?: boolean; readOnly?: boolean }>;
  indexes: Record<string, { pk: { composite: string[]; template?: string } }>;
};
const schemaOf = (entity: Entity<string, string, string, never>) => (entity as unknown as { schema: Schema }).schema;

async function entities() {
  const found: { name: string; schema: Schema }[] = [];
  for (const file of modelFiles) {
    const module = (await import(path.join(SRC, file))) as Record<string, unknown>;
    for (const [name, value] of Object.entries(module)) {
      if (typeof value === 'object' && value !== null && Reflect.getPrototypeOf(value) === Entity.prototype) {
        found.push({ name: `${file}: ${name}`, schema: schemaOf(value as Entity<string, string, string, never>) });
      }
    }
  }
  return found;
}

/** The indexes of an entity whose partition key does not start with the tenant attributes. */
const unscopedIndexes = (schema: Schema) =>
  Object.entries(schema.indexes)
    .filter(
      ([, index]) =>
        index.pk.composite[0] !== 'projectId' ||
        index.pk.composite[1] !== 'env' ||
        // A key template writes the values in its own order: the tenant's must still come first.
        // biome-ignore lint/suspicious/noTemplateCurlyInString: ElectroDB's key template syntax, not a JS template.
        (index.pk.template !== undefined && !index.pk.template.startsWith('${projectId}#${env}')),
    )
    .map(([name, index]) => `${name} (${index.pk.composite.join(', ')})`);

describe('tenant keys', () => {
  it('every project-scoped entity starts every partition key with projectId and env', async () => {
    const all = await entities();
    // A record of a project requires its project (a console session only remembers the one picked last).
    const scoped = all.filter(({ schema }) => schema.attributes.projectId?.required && 'env' in schema.attributes);
    expect(scoped.length).toBeGreaterThanOrEqual(25);
    const leaks = scoped.flatMap(({ name, schema }) => unscopedIndexes(schema).map((index) => `${name} ${index}`));
    expect(leaks).toEqual([]);
    // The tenant attributes are one definition: required, never changed after the write.
    for (const { name, schema } of scoped) {
      for (const attribute of ['projectId', 'env'] as const) {
        expect(schema.attributes[attribute]?.required, `${name}.${attribute}`).toBe(
          tenantAttributes[attribute].required,
        );
        expect(schema.attributes[attribute]?.readOnly, `${name}.${attribute}`).toBe(true);
      }
    }
  });

  it('finds an index that would read across tenants (the check itself works)', () => {
    const schema = {
      attributes: {},
      indexes: {
        primary: { pk: { composite: ['projectId', 'env', 'ticketId'] } },
        byEmail: { pk: { composite: ['email'] } },
        byProject: { pk: { composite: ['projectId'] } },
      },
    };
    expect(unscopedIndexes(schema)).toEqual(['byEmail (email)', 'byProject (projectId)']);
  });
});
