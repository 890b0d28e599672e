import type { paths } from './schema.js';

/** A ticket field's value as the API carries it (multi-select: a list). */
export type FieldValue = string | number | boolean | string[];

/** A project's ticket fields by key (GET /ticket-fields), e.g. `{ order_id: string; plan: 'free' | 'pro' }`. */
export type TicketFields = Record<string, FieldValue>;

/** `customFields` as sent (null removes a value) and as answered (a ticket may hold any of them). */
type FieldsOf<Declared, F extends TicketFields> = undefined extends Declared
  ? { [K in keyof F]?: F[K] | null }
  : { [K in keyof F]?: F[K] };

/** The API's types with every `customFields` typed by the project's fields. */
type WithFields<T, F extends TicketFields> = T extends readonly (infer U)[]
  ? WithFields<U, F>[]
  : T extends object
    ? { [K in keyof T]: K extends 'customFields' ? FieldsOf<T[K], F> : WithFields<T[K], F> }
    : T;

export type PathsWithFields<F extends TicketFields> = WithFields<paths, F>;
