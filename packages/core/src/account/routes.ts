import * as v from 'valibot';
import { uuid } from '../http/schemas.js';
import { defineRoute } from '../http/route.js';

const projectRef = v.object({ id: uuid, slug: v.string(), name: v.string() });

export const accountRoutes = {
  listProjects: defineRoute({
    id: 'listProjects',
    method: 'GET',
    path: '/projects',
    group: 'account',
    tags: ['Account'],
    summary: 'List the projects this API key can reach',
    tenancy: 'account',
    response: v.object({ projects: v.array(projectRef) }),
  }),
  listMembers: defineRoute({
    id: 'listMembers',
    method: 'GET',
    path: '/members',
    group: 'account',
    tags: ['Tickets'],
    summary: 'List account members (valid assignee targets)',
    tenancy: 'account',
    scope: 'tickets:read',
    response: v.object({
      members: v.array(v.object({ id: uuid, email: v.string(), name: v.string(), role: v.picklist(['admin', 'agent']) })),
    }),
  }),
};
