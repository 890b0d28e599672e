import * as v from 'valibot';

/** Header values: no C0 controls, DEL or Unicode line separators (a line break would start a new header). */
export const PLAIN_LINE = /^[^\u0000-\u001f\u007f\u2028\u2029]*$/;

/** Subjects are header values (apart from mailbox.ts, so a schema that checks one does not load the address parser). */
export const plainLine = v.regex(PLAIN_LINE, 'Control characters and line breaks are not allowed');
