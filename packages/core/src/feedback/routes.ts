import type { RouteDef } from '../http/route.js';

export const feedbackRoutes = {} satisfies Record<string, RouteDef>;
