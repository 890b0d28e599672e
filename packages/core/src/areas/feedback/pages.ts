import type { ConversationView } from './present.js';

/** The public pages' HTML. Every dynamic value goes through `esc`. */
export const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** The shell of every public page (feedback, the customer's ticket page). */
export const layout = (title: string, content: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${esc(title)}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#1f2937}
fieldset{border:0;padding:0;display:flex;gap:.5rem}
label.choice{flex:1;text-align:center;border:1px solid #d1d5db;border-radius:.5rem;padding:.75rem 0;cursor:pointer}
textarea{width:100%;min-height:6rem;margin:1rem 0}
button{padding:.6rem 1.4rem;border:0;border-radius:.5rem;background:#2563eb;color:#fff;font-size:1rem}
.msg{border-left:3px solid #d1d5db;padding:.25rem .75rem;margin:1rem 0;white-space:pre-wrap}
.staff{border-color:#2563eb}
small{color:#6b7280}
.files{margin:.25rem 0 0;padding-left:1rem}
</style>
</head>
<body>
<main>
${content}
</main>
</body>
</html>`;

/** Headers of every public page: the token in the address must not leak, nor the page be cached or framed. */
export const HTML_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
};

const LABELS = ['Very poor', 'Poor', 'Okay', 'Good', 'Excellent'];

export const ratingPage = (message: string | undefined) =>
  layout(
    'How did we do?',
    `<h1>How did we do?</h1>
${message ? `<p>${esc(message)}</p>` : ''}
<form method="post">
<fieldset>
<legend>Your rating</legend>
${LABELS.map((label, i) => `<label class="choice"><input type="radio" name="rating" value="${i + 1}" required> ${i + 1}<br><small>${label}</small></label>`).join('\n')}
</fieldset>
<label for="comment">Anything you would like to add? (optional)</label>
<textarea id="comment" name="comment" maxlength="5000"></textarea>
<button type="submit">Send</button>
</form>`,
  );

export const thanksPage = (rating: number | null) =>
  layout(
    'Thank you',
    `<h1>Thank you!</h1><p>Your rating${rating ? ` of ${rating} out of 5` : ''} has been recorded.</p>`,
  );

export const threadPage = (conversation: ConversationView) =>
  layout(
    conversation.subject,
    `<h1>${esc(conversation.subject)}</h1>
${conversation.messages
  .map(
    (m) =>
      `<div class="msg ${m.senderType}"><small>${m.senderType === 'staff' ? 'Support' : 'You'} · ${esc(m.createdAt)}</small>\n${esc(m.body)}</div>`,
  )
  .join('\n')}`,
  );

export const notFoundPage = () =>
  layout(
    'Link not valid',
    '<h1>This link is no longer valid</h1><p>It may have been used already or have expired.</p>',
  );
