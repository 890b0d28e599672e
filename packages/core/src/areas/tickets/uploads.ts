import { randomUUID } from 'node:crypto';
import type { EntityItem } from 'electrodb';
import type * as v from 'valibot';
import { isExpired, ttlIn } from '../../kernel/db/client.js';
import { update } from '../../kernel/db/commit.js';
import { problem } from '../../kernel/errors/problem.js';
import { deleteObjects, listObjects, objectSize, presignPut } from '../../kernel/ports/blob-store.js';
import type { TenantContext } from '../../kernel/tenant.js';
import { UPLOAD_PREFIX, UPLOAD_TTL_SECONDS, UPLOAD_URL_SECONDS, Upload } from './entities.js';
import type { uploadBody } from './schemas.js';

export type UploadItem = EntityItem<typeof Upload>;

/** POST /attachments's body. */
export type UploadInput = v.InferOutput<typeof uploadBody>;

/**
 * POST /attachments: an upload item and a presigned PUT for exactly `size` bytes of `mimeType`. Files
 * too large for a Lambda request body go straight to S3 this way, then a message attaches them.
 */
export async function createUpload(ctx: TenantContext, input: UploadInput, now = new Date()) {
  const uploadId = randomUUID();
  const objectKey = `${UPLOAD_PREFIX}${ctx.projectId}/${ctx.env}/${uploadId}`;
  await Upload.create({
    projectId: ctx.projectId,
    env: ctx.env,
    uploadId,
    objectKey,
    fileName: input.fileName,
    mimeType: input.mimeType,
    size: input.size,
    createdAt: now.toISOString(),
    expiresAt: ttlIn(UPLOAD_TTL_SECONDS, now.getTime()),
  }).go();
  return {
    id: uploadId,
    uploadUrl: await presignPut(objectKey, input.mimeType, input.size, UPLOAD_URL_SECONDS),
    method: 'PUT' as const,
    headers: { 'Content-Type': input.mimeType, 'Content-Length': String(input.size) },
    expiresAt: new Date(now.getTime() + UPLOAD_URL_SECONDS * 1000).toISOString(),
  };
}

/** A message's reference to an upload, with its place in the message's `attachments`. */
export interface UploadRef {
  uploadId: string;
  position: number;
}

/**
 * The uploads a message names, checked before anything is stored: each must be of this project and
 * environment and not expired (else 422 `ticket.upload_not_found`), not attached yet nor named twice
 * (422 `ticket.upload_used`), and its object stored with the declared size (422 `ticket.upload_incomplete`).
 */
export async function loadUploads(ctx: TenantContext, refs: UploadRef[], now = Date.now()): Promise<UploadItem[]> {
  if (refs.length === 0) return [];
  // BatchGetItem refuses a key listed twice; naming an upload twice is refused below.
  const ids = [...new Set(refs.map((r) => r.uploadId))];
  const { data } = await Upload.get(ids.map((uploadId) => ({ projectId: ctx.projectId, env: ctx.env, uploadId }))).go();
  const byId = new Map(data.map((u) => [u.uploadId, u]));
  const seen = new Set<string>();
  const items = refs.map((ref) => {
    const item = byId.get(ref.uploadId);
    if (!item || isExpired(item.expiresAt, now)) throw problem('ticket.upload_not_found', ref);
    if (item.attachedTo || seen.has(ref.uploadId)) throw problem('ticket.upload_used', ref);
    seen.add(ref.uploadId);
    return item;
  });
  const sizes = await Promise.all(items.map((u) => objectSize(u.objectKey)));
  refs.forEach((ref, i) => {
    const stored = sizes[i];
    const declared = items[i]?.size;
    if (stored !== declared) {
      throw problem('ticket.upload_incomplete', { ...ref, declaredBytes: declared ?? 0, storedBytes: stored });
    }
  });
  return items;
}

/** The transaction item that marks an upload attached, conditioned on it still being free and unexpired. */
export const claimUpload = (u: UploadItem, attachedTo: string, now = Date.now()) =>
  update(
    Upload.patch({ projectId: u.projectId, env: u.env, uploadId: u.uploadId })
      .set({ attachedTo })
      .where((a, op) => `${op.notExists(a.attachedTo)} AND ${op.gt(a.expiresAt, Math.floor(now / 1000))}`),
  );

/**
 * The local stand-in for the bucket's lifecycle rule on `uploads/` (and for DynamoDB's TTL on their
 * items): objects written more than 24 hours before `now` are deleted with their upload items. Attached
 * uploads were copied to their ticket's key already, so this only removes files nobody attached.
 */
export async function sweepExpiredUploads(now = new Date()) {
  const cutoff = now.getTime() - UPLOAD_TTL_SECONDS * 1000;
  const expired = (await listObjects(UPLOAD_PREFIX)).filter((o) => o.lastModified.getTime() <= cutoff);
  if (expired.length === 0) return 0;
  const keys = expired.flatMap((o) => {
    const [projectId, env, uploadId] = o.key.slice(UPLOAD_PREFIX.length).split('/');
    return projectId && uploadId && (env === 'live' || env === 'sandbox')
      ? [{ projectId, env: env as 'live' | 'sandbox', uploadId }]
      : [];
  });
  await Promise.all([deleteObjects(expired.map((o) => o.key)), keys.length ? Upload.delete(keys).go() : undefined]);
  return expired.length;
}
