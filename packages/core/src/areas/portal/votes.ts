import { createHash } from 'node:crypto';
import { ttlIn } from '../../kernel/db/client.js';
import { commit, put, update } from '../../kernel/db/commit.js';
import { viewerAddress } from '../../kernel/edge.js';
import { errors } from '../../kernel/errors/common.js';
import { Article } from '../articles/entities.js';
import { publishedArticle } from './content.js';
import { PortalVote } from './entities.js';
import { portalPath } from './links.js';
import { missing, seeOther } from './respond.js';
import type { PageRequest } from './views.js';
import { onSite } from './views.js';

/** A visitor without a cookie: a hash of source IP and user agent (neither is stored). */
const visitorOf = (sourceIp: string, userAgent: string | undefined) =>
  createHash('sha256')
    .update(`${sourceIp}\n${userAgent ?? ''}`)
    .digest('base64url')
    .slice(0, 22);

/**
 * "Was this helpful?": one vote per visitor per article per day. The vote's marker and the article's
 * count are one transaction; a second vote the same day changes nothing and thanks the visitor alike.
 */
export const voteOnArticle = (req: PageRequest, slug: string, helpful: 'yes' | 'no', sourceIp: string) =>
  onSite(req, async (site) => {
    const found = await publishedArticle(site.ctx, slug);
    if (!found) return missing();
    const tenant = { projectId: site.ctx.projectId, env: site.ctx.env };
    const articleId = found.article.articleId;
    const visitor = visitorOf(await viewerAddress(req.headers, sourceIp), req.headers['user-agent']);
    await commit({
      items: () => ({
        vote: put(
          PortalVote.create({
            ...tenant,
            articleId,
            day: new Date().toISOString().slice(0, 10),
            visitor,
            expiresAt: ttlIn(2 * 86_400),
          }),
        ),
        count: update(
          Article.patch({ ...tenant, articleId }).add(helpful === 'yes' ? { helpfulYes: 1 } : { helpfulNo: 1 }),
        ),
      }),
      // Voted today already, or the article went meanwhile: nothing to count.
      refused: () => 'stop',
      exhausted: () => errors.conflict('The vote'),
    });
    return seeOther(`${portalPath(site.handle, `/articles/${encodeURIComponent(slug)}`)}?voted=1`);
  });
