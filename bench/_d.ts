import { parameterize } from '@helpdesk/core/logs/tokens';
import { Templates } from '@helpdesk/core/logs/templates';
import { readLogFiles } from './loghub.js';
const f = readLogFiles('/tmp/loghub-other').find((x) => x.system === 'OpenStack')!;
const t = new Templates();
const seen = new Map<string, number>();
f.lines.forEach((l, i) => {
  const w = Templates.wordsOf(parameterize(l.content));
  if (!w) return console.log('NOT LEARNED', l.content.slice(0, 100));
  const r = t.learn('', w, `i${i}`);
  if (l.content.includes('"GET') && (r.changed || r.merged.length)) console.log(i, r, w.join(' '));
});
