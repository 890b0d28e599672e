import * as v from 'valibot';
import { integer, isoDateTime, uuid } from '../../kernel/api/schemas.js';

/** The customer's history rows on GET /customers/{id}. */
export const customerTicketSchema = v.object({
  id: uuid,
  number: integer,
  subject: v.string(),
  status: v.string(),
  createdAt: isoDateTime,
});
export const customerFeedbackSchema = v.object({
  type: v.picklist(['conversation', 'request']),
  id: uuid,
  status: v.string(),
  subject: v.nullable(v.string()),
  rating: v.nullable(integer),
  sentiment: v.nullable(v.picklist(['positive', 'neutral', 'negative'])),
  createdAt: isoDateTime,
});
