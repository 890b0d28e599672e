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

/** The definitions in use, in position order (then key). */
export async function activeFields(ctx: TenantKey): Promise<FieldRecord[]> {
  return (await allFields(ctx))
    .filter((f) => !f.deletedAt)
    .sort((a, b) => a.position - b.position || a.key.localeCompare(b.key));
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
  const now = new Date().toISOString();
  await commit({
    items: () => ({
      field: put(
        TicketField.create({
          ...tenantOf(ctx),
          key: input.key,
          label: input.label,
          type: input.type,
          ...(input.options ? { options: input.options } : {}),
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
  return { deleted: true, key };
}
