import { randomUUID } from 'node:crypto';
import { releaseStorage, reserveStorage } from '../../identity/quota.js';
import { errors } from '../../kernel/errors/common.js';
import { problem } from '../../kernel/errors/problem.js';
import { logger } from '../../kernel/logger.js';
import { must } from '../../kernel/must.js';
import { copyObject, deleteObjects, putObject } from '../../kernel/ports/blob-store.js';
import type { TenantContext } from '../../kernel/tenant.js';
import { MAX_ATTACHMENT_BYTES } from './entities.js';
import type { AttachmentItem, OriginalMail } from './present.js';
import { claimUpload, loadUploads, type UploadItem } from './uploads.js';

/** A file given with a message: inline (base64) or an upload made before (POST /attachments). */
export type GivenFile = { fileName: string; mimeType: string; content: string } | { uploadId: string };

/** One file of a message: its bytes (inline) or the upload holding them. */
type File = { fileName: string; mimeType: string; size: number } & ({ bytes: Buffer } | { upload: UploadItem });

/**
 * An attachment's object key. The file's name is not part of it: it is stored on the item and given
 * to downloads as Content-Disposition, and a name of 255 characters (more bytes in UTF-8) would make
 * keys the local stand-in cannot store as files.
 */
export const objectKeyOf = (ctx: TenantContext, ticketId: string, attachmentId: string) =>
  `${ctx.projectId}/${ctx.env}/tickets/${ticketId}/${attachmentId}`;

/**
 * Writes a message's original mail under its ticket's key (deleted with the ticket) and answers the
 * key for the message item. Kept in S3, not on the item: a long thread's HTML would make every read
 * of the ticket pay for it, and only `?include=original` reads it.
 */
export async function storeOriginal(ctx: TenantContext, ticketId: string, messageId: string, original: OriginalMail) {
  const key = `${ctx.projectId}/${ctx.env}/tickets/${ticketId}/originals/${messageId}.json`;
  await putObject(key, JSON.stringify(original), 'application/json');
  return key;
}

/**
 * The attachments of a new message, checked (inline size, uploads of this tenant, unexpired, complete)
 * before anything is written. `store()` reserves the storage and writes the objects (inline files
 * written, uploads copied to the ticket's key); the caller commits `attachments` and `claims` with the
 * message, then calls `committed()`, or `discard()` when the commit failed.
 */
export async function prepareFiles(
  ctx: TenantContext,
  ticketId: string,
  messageId: string,
  given: GivenFile[],
  createdAt: string,
) {
  const inlineBytes = given.reduce((n, a) => n + ('content' in a ? Buffer.byteLength(a.content, 'base64') : 0), 0);
  if (inlineBytes > MAX_ATTACHMENT_BYTES) {
    throw problem('ticket.attachments_too_large', { maxBytes: MAX_ATTACHMENT_BYTES, bytes: inlineBytes });
  }
  const uploadRefs = given.flatMap((a, position) => ('uploadId' in a ? [{ uploadId: a.uploadId, position }] : []));
  const uploads = await loadUploads(ctx, uploadRefs);
  // A concurrent message took an upload (or it expired) since the check above: checking again says which.
  const uploadTaken = async () => {
    await loadUploads(ctx, uploadRefs);
    return errors.conflict('An upload');
  };
  const files: File[] = given.map((a) => {
    if ('content' in a) {
      const bytes = Buffer.from(a.content, 'base64');
      return { fileName: a.fileName, mimeType: a.mimeType, size: bytes.length, bytes };
    }
    const upload = must(
      uploads.find((u) => u.uploadId === a.uploadId),
      'the upload read for the attachment',
    );
    return { fileName: upload.fileName, mimeType: upload.mimeType, size: upload.size, upload };
  });
  const tenant = { projectId: ctx.projectId, env: ctx.env, ticketId };
  const attachments: AttachmentItem[] = files.map((f, position) => {
    const attachmentId = randomUUID();
    return {
      ...tenant,
      messageId,
      attachmentId,
      position,
      fileName: f.fileName,
      fileSize: f.size,
      mimeType: f.mimeType,
      objectKey: objectKeyOf(ctx, ticketId, attachmentId),
      createdAt,
    };
  });
  const totalBytes = files.reduce((n, f) => n + f.size, 0);
  const discard = async () => {
    await releaseStorage(ctx, totalBytes);
    if (attachments.length) await deleteObjects(attachments.map((a) => a.objectKey));
  };
  return {
    attachments,
    totalBytes,
    claims: uploads.map((u) => claimUpload(u, `${ticketId}/${messageId}`)),
    uploadTaken,
    async store() {
      await reserveStorage(ctx, totalBytes);
      try {
        await Promise.all(
          attachments.map(async (a, i) => {
            const f = must(files[i], 'the file of the attachment');
            if ('bytes' in f) return putObject(a.objectKey, f.bytes, a.mimeType);
            // The message that attaches an upload deletes its object.
            if (!(await copyObject(f.upload.objectKey, a.objectKey))) throw await uploadTaken();
          }),
        );
      } catch (err) {
        await discard();
        throw err;
      }
    },
    discard,
    /** The copies are the attachments now; the lifecycle rule would remove the uploads later anyway. */
    async committed() {
      if (uploads.length)
        await deleteObjects(uploads.map((u) => u.objectKey)).catch((error: unknown) =>
          logger.warn('Could not delete attached uploads', { error: error as Error }),
        );
    },
  };
}
