import * as v from 'valibot';
import { filePart, integer, isoDateTime, jsonObject, maxChars, uuid } from '../../kernel/api/schemas.js';
import { plainLine } from '../../kernel/mail/plain-line.js';
import { REF_MAX, TEMPLATE_TYPES } from './keys.js';

/** Files above this are refused with a 422 of ours; the multipart parser's own limit sits higher. */
export const MAX_FILE_BYTES = 512 * 1024;

/** A template's subject is Handlebars source (conditionals make it longer than it renders); the field and the file's subject comment share this limit. */
export const MAX_SUBJECT_SOURCE = 1000;

export const importBody = v.strictObject({
  file: filePart,
  type: v.optional(v.picklist(TEMPLATE_TYPES, 'Expected template, layout or partial'), 'template'),
  key: v.optional(v.string()),
  name: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200))),
  subject: v.optional(
    v.pipe(
      v.string(),
      v.maxLength(MAX_SUBJECT_SOURCE, `At most ${MAX_SUBJECT_SOURCE} characters of template source`),
      // A subject is a header: a line break in its source would never send (the send refuses it).
      plainLine,
      v.metadata({ examples: ['Your order {{orderId}} has shipped'] }),
    ),
  ),
  layout: v.optional(v.string()),
});

const nullableString = v.nullable(v.string());

/** What every listing of an item says about it. */
const itemFields = {
  key: v.string(),
  name: v.string(),
  type: v.picklist(TEMPLATE_TYPES),
  scope: v.picklist(['project', 'account']),
  subject: v.string(),
  version: integer,
  layoutKey: nullableString,
};

export const importResult = v.object({
  id: uuid,
  ...itemFields,
  variables: v.array(v.string()),
  referencedPartials: v.array(v.string()),
  layoutId: nullableString,
  layoutLinked: v.boolean(),
  warnings: v.array(v.string()),
});

export const templateSchema = v.object({
  key: v.string(),
  name: v.string(),
  subject: v.string(),
  variables: v.array(v.string()),
});

export const templateRow = v.object({ ...itemFields, updatedAt: isoDateTime });

const format = v.optional(v.picklist(['html', 'text']), 'html');

/**
 * The variant is chosen by the presence of `templateKey` (a custom preview must leave it out), so a
 * refusal names the fields that fail in the variant meant rather than a union mismatch.
 */
export const previewBody = v.variant(
  'templateKey',
  [
    v.strictObject({
      templateKey: v.pipe(v.string(), v.minLength(1), v.maxLength(REF_MAX)),
      variables: v.optional(jsonObject, {}),
      format,
    }),
    v.strictObject({
      templateKey: v.optional(v.never()),
      subject: v.pipe(
        v.string(),
        v.minLength(1),
        maxChars(200),
        plainLine,
        v.metadata({ examples: ['Welcome, {{name}}'] }),
      ),
      body: v.pipe(v.string(), v.minLength(1), maxChars(50000)),
      layout: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(REF_MAX))),
      format,
    }),
  ],
  'templateKey must be a non-empty string (a template preview), or left out (a custom preview with subject and body)',
);

export const previewResult = v.object({
  subject: v.string(),
  html: v.optional(v.string()),
  text: v.optional(v.string()),
  detectedVariables: v.array(v.string()),
  missingVariables: v.array(v.string()),
});
