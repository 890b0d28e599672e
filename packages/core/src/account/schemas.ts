import * as v from 'valibot';
import { uuid } from '../http/schemas.js';

export const projectRef = v.object({ id: uuid, slug: v.string(), name: v.string() });

export const member = v.object({ id: uuid, email: v.string(), name: v.string(), role: v.picklist(['admin', 'agent']) });
