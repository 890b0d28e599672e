import { problem } from '../../kernel/errors/problem.js';

/** A merged ticket is read-only (409 `ticket.merged`, naming the ticket it went into); only unmerge writes it. */
export function assertWritable(ticket: { mergedInto?: string }) {
  if (ticket.mergedInto) throw problem('ticket.merged', { mergedInto: ticket.mergedInto });
}
