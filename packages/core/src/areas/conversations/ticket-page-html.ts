import { acceptsJson } from '../../kernel/api/accept.js';
import { type RawResult, rawResponse } from '../../kernel/api/route.js';
import { Problem } from '../../kernel/errors/problem.js';
import { esc, HTML_HEADERS, layout, notFoundPage } from '../feedback/pages.js';
import type { GivenFile } from '../tickets/files.js';
import { type FilePart, filesFromForm } from '../tickets/form-files.js';
import { answerOnPage, customerTicket } from './ticket-page.js';

type View = Awaited<ReturnType<typeof customerTicket>>;

const wantsJson = (headers: Record<string, string | undefined>) => acceptsJson(headers.accept);
/** A browser's form post (either encoding): it gets pages back, errors included. */
const isForm = (headers: Record<string, string | undefined>) =>
  /^(?:multipart\/form-data|application\/x-www-form-urlencoded)/i.test(headers['content-type'] ?? '');

const STATUS_TEXT: Record<View['status'], string> = {
  new: 'Received',
  open: 'Open',
  pending: 'Waiting for your answer',
  resolved: 'Resolved',
  closed: 'Closed',
};

function ticketHtml(view: View, notice?: string) {
  return layout(
    view.subject,
    `<h1>${esc(view.subject)}</h1>
<p><small>Ticket #${view.number} · ${esc(STATUS_TEXT[view.status])}</small></p>
${notice ? `<p role="status">${esc(notice)}</p>` : ''}
${view.messages
  .map(
    (
      m,
    ) => `<div class="msg ${m.senderType}"><small>${m.senderType === 'staff' ? 'Support' : 'You'} · ${esc(m.createdAt)}</small>
${esc(m.body)}${m.attachments.length ? `<ul class="files">${m.attachments.map((a) => `<li><a href="${esc(a.url)}">${esc(a.fileName)}</a></li>`).join('')}</ul>` : ''}</div>`,
  )
  .join('\n')}
<form method="post" enctype="multipart/form-data">
<label for="body">Your answer</label>
<textarea id="body" name="body" maxlength="10000" required></textarea>
<p><label for="file">Files (optional)</label><br><input type="file" id="file" name="file" multiple></p>
<button type="submit">Send</button>
</form>`,
  );
}

/** GET: the page (HTML), or its data with `Accept: application/json`. */
export async function showTicketPage(
  token: string,
  headers: Record<string, string | undefined>,
): Promise<View | RawResult> {
  if (wantsJson(headers)) return customerTicket(token);
  try {
    return rawResponse(200, ticketHtml(await customerTicket(token)), HTML_HEADERS);
  } catch (err) {
    if (err instanceof Problem && err.status === 404) return rawResponse(404, notFoundPage(), HTML_HEADERS);
    throw err;
  }
}

/** POST: the answer; the form gets the page again (or its error as a page), JSON the ticket's data. */
export async function answerTicketPage(
  token: string,
  body: { body: string; attachments?: GivenFile[]; file?: FilePart | FilePart[] },
  headers: Record<string, string | undefined>,
): Promise<View | RawResult> {
  const answer = () => {
    const attachments: GivenFile[] = [...(body.attachments ?? []), ...filesFromForm(body.file)];
    return answerOnPage(token, { body: body.body, attachments });
  };
  if (!isForm(headers)) return answer();
  try {
    return rawResponse(200, ticketHtml(await answer(), 'Thank you: your answer was sent.'), HTML_HEADERS);
  } catch (err) {
    if (!(err instanceof Problem)) throw err;
    if (err.status === 404) return rawResponse(404, notFoundPage(), HTML_HEADERS);
    return rawResponse(err.status, layout('Not sent', `<h1>Your answer was not sent</h1><p>${esc(err.message)}</p>`), {
      ...HTML_HEADERS,
      ...(err.headers ?? {}),
    });
  }
}
