import * as v from 'valibot';
import { errors } from '../../kernel/errors/common.js';
import type { GivenFile } from './files.js';
import { fileName } from './schemas.js';

/** A file part of a multipart form, as the multipart parser gives it. */
export interface FilePart {
  filename: string;
  mimetype: string;
  content: Buffer;
}

const isFilePart = (part: unknown): part is FilePart =>
  typeof part === 'object' &&
  part !== null &&
  Buffer.isBuffer((part as FilePart).content) &&
  typeof (part as FilePart).filename === 'string' &&
  typeof (part as FilePart).mimetype === 'string';

/** A file name from a form, held to the API's rule (a refused name answers 422 like the API's). */
function formFileName(given: string) {
  const checked = v.safeParse(fileName, given || 'attachment');
  if (!checked.success) throw errors.validation([{ field: 'file', in: 'body', message: checked.issues[0].message }]);
  return checked.output;
}

/**
 * The files of a page's form as the API's inline attachments, in the order the form lists them. The
 * multipart parser lists repeated parts newest first; a browser sends an empty part for a file input
 * left empty.
 */
export function filesFromForm(file: unknown): GivenFile[] {
  const parts: unknown[] = Array.isArray(file) ? [...file].reverse() : file !== undefined && file !== '' ? [file] : [];
  // A text field named `file` (a form not sent as multipart, or a hand-made one) is no file.
  if (!parts.every(isFilePart)) throw errors.validation([{ field: 'file', in: 'body', message: 'Expected a file' }]);
  return parts
    .filter((f) => f.content.length > 0)
    .map((f) => ({
      fileName: formFileName(f.filename),
      mimeType: /^[\w.+-]+\/[\w.+-]+$/.test(f.mimetype) ? f.mimetype : 'application/octet-stream',
      content: f.content.toString('base64'),
    }));
}
