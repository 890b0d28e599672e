import type { RouteDef } from '../http/route.js';

export const ticketRoutes = {} satisfies Record<string, RouteDef>;
