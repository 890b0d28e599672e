import type { EntityItem } from 'electrodb';
import { commit, put, update } from '../../kernel/db/commit.js';
import { errors } from '../../kernel/errors/common.js';
import { problem } from '../../kernel/errors/problem.js';
import { outboxItem } from '../../kernel/ports/outbox.js';
import type { TenantContext, TenantKey } from '../../kernel/tenant.js';
import { TicketField } from './entities.js';
import { fieldCleanupQueue } from './queue.js';
import type { FieldCreate, FieldUpdate } from './schemas.js';
import { MAX_FIELDS } from './values.js';

export type FieldRecord = EntityItem<typeof TicketField>;
/** What validation and the index need of a definition. */
export type FieldDef = Pick<FieldRecord, 'key' | 'label' | 'type' | 'options' | 'required' | 'filterable'>;

const tenantOf = (ctx: TenantKey) => ({ projectId: ctx.projectId, env: ctx.env });

/** Every definition of the project and environment, deleted ones included: one Query. */
async function allFields(ctx: TenantKey) {
  const { data } = await TicketField.query.byKey(tenantOf(ctx)).go({ pages: 'all' });
  return data;
}

/**
 * Definitions a ticket write or list reads, kept FIELDS_TTL_MS per instance so a ticket write pays no
 * read for them: a definitions write forgets them on its instance; a write that gives a value checks in
 * its transaction that the field still exists with that type (field-values.ts), and a key the kept
 * list does not know is looked up again (usedFields). A new `required` reaches other instances within
 * FIELDS_TTL_MS.
 */
export const FIELDS_TTL_MS = 10_000;
const MAX_KEPT = 1_000;
const kept = new Map<string, { fields: FieldRecord[]; at: number }>();
const keyOf = (ctx: TenantKey) => `${ctx.projectId}#${ctx.env}`;
const forget = (ctx: TenantKey) => kept.delete(keyOf(ctx));

/** The definitions in use, in position order (then key), read now. */
export async function activeFields(ctx: TenantKey): Promise<FieldRecord[]> {
  const fields = (await allFields(ctx))
    .filter((f) => !f.deletedAt)
    .sort((a, b) => a.position - b.position || a.key.localeCompare(b.key));
  if (!kept.has(keyOf(ctx)) && kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value ?? '');
  kept.set(keyOf(ctx), { fields, at: Date.now() });
  return fields;
}

/** The definitions for a ticket write or filter naming `keys`: the kept ones, unless one of the keys is new to them. */
export function usedFields(ctx: TenantKey, keys: Iterable<string> = []): Promise<FieldRecord[]> {
  const hit = kept.get(keyOf(ctx));
  if (hit && Date.now() - hit.at < FIELDS_TTL_MS && [...keys].every((k) => hit.fields.some((f) => f.key === k)))
    return Promise.resolve(hit.fields);
  return activeFields(ctx);
}

export const toField = (f: FieldRecord) => ({
  key: f.key,
  label: f.label,
  type: f.type,
  options: f.options ?? null,
  required: f.required,
  filterable: f.filterable,
  position: f.position,
  valueCount: Math.max(0, f.valueCount),
  createdAt: f.createdAt,
  updatedAt: f.updatedAt,
});

export async function listFields(ctx: TenantContext) {
  return { fields: (await activeFields(ctx)).map(toField) };
}

async function loadField(ctx: TenantKey, key: string) {
  const { data } = await TicketField.get({ ...tenantOf(ctx), key }).go();
  if (!data || data.deletedAt) throw errors.notFound('Ticket field');
  return data;
}

export async function getField(ctx: TenantContext, key: string) {
  return toField(await loadField(ctx, key));
}

/** At most MAX_FIELDS per project and environment, counting deleted ones whose values are not yet removed. */
export async function createField(ctx: TenantContext, input: FieldCreate) {
  const existing = await allFields(ctx);
  if (existing.some((f) => f.key === input.key)) throw problem('ticket_field.key_taken', { key: input.key });
  if (existing.length >= MAX_FIELDS) throw problem('ticket_field.limit', { limit: MAX_FIELDS });
  const select = input.type.endsWith('select');
  if (select && !input.options)
    throw errors.validation([
      { field: 'options', in: 'body', message: 'A select or multi-select field needs its options' },
    ]);
  const now = new Date().toISOString();
  await commit({
    items: () => ({
      field: put(
        TicketField.create({
          ...tenantOf(ctx),
          key: input.key,
          label: input.label,
          type: input.type,
          ...(select && input.options ? { options: input.options } : {}),
          required: input.required ?? false,
          filterable: input.filterable ?? false,
          position: input.position ?? existing.length,
          createdAt: now,
          updatedAt: now,
        }),
      ),
    }),
    refused: () => {
      throw problem('ticket_field.key_taken', { key: input.key });
    },
    exhausted: () => errors.conflict('The ticket field'),
  });
  forget(ctx);
  return getField(ctx, input.key);
}

/**
 * A label, options, required, filterable or position change applies at once and keeps every value; a
 * type change is refused while tickets hold values (`valueCount`, kept by their writes).
 */
export async function updateField(ctx: TenantContext, key: string, input: FieldUpdate) {
  let current = await loadField(ctx, key);
  await commit({
    items: () => {
      const type = input.type ?? current.type;
      if (input.type && input.type !== current.type && current.valueCount > 0)
        throw problem('ticket_field.type_in_use', { valueCount: current.valueCount });
      const options = input.options ?? current.options;
      if (type.endsWith('select') && !options?.length)
        throw errors.validation([{ field: 'options', in: 'body', message: 'A select field needs its options' }]);
      return {
        field: update(
          TicketField.patch({ ...tenantOf(ctx), key })
            .set({
              ...(input.label !== undefined ? { label: input.label } : {}),
              type,
              ...(type.endsWith('select') && options ? { options } : {}),
              ...(input.required !== undefined ? { required: input.required } : {}),
              ...(input.filterable !== undefined ? { filterable: input.filterable } : {}),
              ...(input.position !== undefined ? { position: input.position } : {}),
              updatedAt: new Date().toISOString(),
            })
            // A value given or taken meanwhile changes the count the type check read.
            .where((a, op) => `${op.eq(a.valueCount, current.valueCount)} AND ${op.notExists(a.deletedAt)}`),
        ),
      };
    },
    refused: async () => {
      current = await loadField(ctx, key);
    },
    exhausted: () => errors.conflict('The ticket field'),
  });
  forget(ctx);
  return getField(ctx, key);
}

/**
 * DELETE: the field disappears from the API at once; its values leave the tickets in the background
 * (the fieldCleanup queue, committed with the deletion), and the key is free once they are gone.
 */
export async function deleteField(ctx: TenantContext, key: string) {
  const current = await loadField(ctx, key);
  await commit({
    items: () => ({
      field: update(
        TicketField.patch({ ...tenantOf(ctx), key: current.key })
          .set({ deletedAt: new Date().toISOString() })
          .where((a, op) => op.notExists(a.deletedAt)),
      ),
      cleanup: outboxItem(fieldCleanupQueue, { projectId: ctx.projectId, env: ctx.env, key }),
    }),
    refused: () => {
      throw errors.notFound('Ticket field');
    },
    exhausted: () => errors.conflict('The ticket field'),
  });
  forget(ctx);
  return { deleted: true, key };
}
