import { randomUUID } from 'node:crypto';
import type * as v from 'valibot';
import { commit } from '../../kernel/db/commit.js';
import { errors } from '../../kernel/errors/common.js';
import { problem } from '../../kernel/errors/problem.js';
import { PLAIN_LINE } from '../../kernel/mail/plain-line.js';
import { placesBody, readDirectives } from './analyze.js';
import { type Compiled, compileSource } from './compile.js';
import { layoutRefOf } from './heads.js';
import { ACCOUNT_PREFIX, KEY_PATTERN, parseRef, qualifiedKey, type Scope } from './keys.js';
import { templateVariables } from './render.js';
import { loadRenderSet } from './render-set.js';
import type { importBody } from './schemas.js';
import { MAX_FILE_BYTES, MAX_SUBJECT_SOURCE } from './schemas.js';
import { compressSource, getHead, type Head, type HeadInput, type Owner, versionWrites } from './store.js';

/** The import form (POST /email-templates/import) as its schema gives it. */
export type ImportInput = v.InferOutput<typeof importBody>;

/** DynamoDB items cap at 400 KB; the gzipped source must fit beside the version row's other fields. */
const MAX_STORED_BYTES = 380 * 1024;

const fieldError = (field: string, message: string) => errors.validation([{ field, in: 'body', message }]);

function keyOf(input: ImportInput, scope: Scope): string {
  let key = input.key ?? input.file.filename.replace(/^.*[\\/]/, '').replace(/\.hbs$/i, '');
  if (scope === 'account' && key.startsWith(ACCOUNT_PREFIX)) key = key.slice(ACCOUNT_PREFIX.length);
  if (!KEY_PATTERN.test(key)) {
    throw fieldError(
      input.key === undefined ? 'file' : 'key',
      'A key is 1 to 100 letters, digits, -, _ or . (from the key field or the file name without .hbs)',
    );
  }
  return key;
}

/**
 * Imports a .hbs file as a template, layout or partial of the project (`ctx.projectId` set) or of
 * the account. Re-importing a key updates it in place with the next version; every version is kept.
 */
export async function importTemplate(ctx: Owner, scope: Scope, input: ImportInput) {
  if (input.file.truncated || input.file.content.length > MAX_FILE_BYTES) {
    throw fieldError('file', `The file is larger than ${MAX_FILE_BYTES / 1024} KB`);
  }
  const key = keyOf(input, scope);
  const source = input.file.content.toString('utf8');
  const compiled = compileSource(scope, source);
  const directives = readDirectives(compiled.ast);
  const stored = compressSource(source);
  if (stored.length > MAX_STORED_BYTES) {
    throw problem('template.too_large');
  }

  const prepareNext = async () =>
    prepare(
      ctx,
      scope,
      key,
      input,
      compiled,
      directives,
      await getHead(ctx, { ref: { scope, key }, type: input.type }),
    );
  let prepared = await prepareNext();
  await commit({
    items: () => versionWrites(ctx, scope, prepared.head, stored),
    // Another import of the key moved its head first: prepare again on top of it.
    refused: async () => {
      prepared = await prepareNext();
    },
    exhausted: () => errors.conflict(`The ${input.type} ${key}`),
  });
  return prepared.result;
}

async function prepare(
  ctx: Owner,
  scope: Scope,
  key: string,
  input: ImportInput,
  compiled: ReturnType<typeof compileSource>,
  directives: ReturnType<typeof readDirectives>,
  existing: Head | undefined,
) {
  const warnings: string[] = [];
  const isTemplate = input.type === 'template';
  if (!isTemplate && input.subject !== undefined) warnings.push(`subject applies to templates only and was ignored.`);
  if (!isTemplate && input.layout !== undefined) warnings.push(`layout applies to templates only and was ignored.`);
  if (!isTemplate && input.subject === undefined && directives.subject !== undefined)
    warnings.push(`The subject comment applies to templates only and was ignored.`);
  if (!isTemplate && input.layout === undefined && directives.layout !== undefined)
    warnings.push(`The layout comment applies to templates only and was ignored.`);

  const subject = isTemplate ? (input.subject ?? directives.subject ?? existing?.subject ?? '') : '';
  // The form field is checked by its schema; a subject comment follows the same rule.
  if (
    isTemplate &&
    input.subject === undefined &&
    directives.subject !== undefined &&
    directives.subject.length > MAX_SUBJECT_SOURCE
  ) {
    throw fieldError('file', `The subject comment is longer than ${MAX_SUBJECT_SOURCE} characters of template source`);
  }
  if (
    isTemplate &&
    input.subject === undefined &&
    directives.subject !== undefined &&
    !PLAIN_LINE.test(directives.subject)
  )
    throw fieldError('file', 'The subject comment holds control characters or line breaks');
  const subjectCompiled = compileSourceAs('The subject', scope, subject);
  warnHelpers(warnings, 'The subject', subjectCompiled);
  warnHelpers(warnings, 'The file', compiled);

  const layout = isTemplate
    ? await linkLayout(ctx, scope, input.layout, directives.layout, existing, warnings)
    : undefined;
  if (input.type === 'layout') {
    const placed = placesBody(compiled.ast);
    if (placed === 'missing') warnings.push('The layout does not place the body: add {{{body}}}.');
    if (placed === 'escaped')
      warnings.push('The layout places the body with {{body}}, which escapes its HTML: use {{{body}}}.');
  }

  // The subject renders with the template's partials: its references are the template's too.
  const referencedPartials = [...new Set([...compiled.partials, ...subjectCompiled.partials])];
  const now = new Date().toISOString();
  const head: HeadInput = {
    id: existing?.id ?? randomUUID(),
    type: input.type,
    key,
    name: input.name ?? existing?.name ?? key,
    subject,
    layoutKey: layout?.key,
    layoutId: layout?.id,
    layoutLinked: layout?.id !== undefined,
    version: (existing?.version ?? 0) + 1,
    referencedPartials,
    unknownHelpers: compiled.unknownHelpers,
    ...(existing ? { createdAt: existing.createdAt } : {}),
  };
  const asHead: Head = { ...head, scope, createdAt: existing?.createdAt ?? now, updatedAt: now };
  const set = await loadRenderSet(ctx, asHead, layoutRefOf(asHead), compiled);
  // A partial that includes itself (recursion over a tree) resolves once this import is stored.
  const itself = head.type === 'partial' ? qualifiedKey(asHead) : undefined;
  for (const partial of set.unresolvedPartials.filter((p) => p !== itself))
    warnings.push(`Partial ${partial} does not resolve; it renders empty until it is imported.`);
  for (const piece of [...(set.layout ? [set.layout] : []), ...set.partialPieces.values()]) {
    warnHelpers(warnings, `The ${piece.head.type} ${qualifiedKey(piece.head)}`, piece.compiled);
  }

  return {
    head,
    result: {
      id: head.id,
      key: qualifiedKey({ scope, key }),
      name: head.name,
      type: head.type,
      scope,
      subject,
      version: head.version,
      variables: templateVariables(set, subjectCompiled),
      referencedPartials,
      layoutKey: layout?.key ?? null,
      layoutId: layout?.id ?? null,
      layoutLinked: head.layoutLinked,
      warnings,
    },
  };
}

/** One warning per call of a helper that does not exist, with its line: the import stands, renders are refused. */
function warnHelpers(warnings: string[], what: string, compiled: Pick<Compiled, 'unknownHelpers'>) {
  for (const use of compiled.unknownHelpers) {
    warnings.push(
      `${what} calls the helper ${use.name} on line ${use.line}, which does not exist: previews and sends are refused until it is removed.`,
    );
  }
}

const compileSourceAs = (what: string, scope: Scope, source: string) =>
  compileSource(scope, source, { escape: false, what });

/**
 * The layout field wins over the file's layout comment; neither keeps the current layout; an empty
 * field or `none` removes it. Project templates link only project layouts.
 */
async function linkLayout(
  ctx: Owner,
  scope: Scope,
  field: string | undefined,
  comment: string | undefined,
  existing: Head | undefined,
  warnings: string[],
): Promise<{ key: string; id?: string } | undefined> {
  const chosen = field !== undefined ? field.trim() : comment !== undefined ? comment.trim() : existing?.layoutKey;
  if (chosen === undefined || chosen === '' || chosen.toLowerCase() === 'none') return undefined;
  const ref = parseRef(chosen, scope);
  if (!ref) throw fieldError('layout', `${chosen} is not a valid layout key`);
  const key = qualifiedKey(ref);
  if (scope === 'project' && ref.scope === 'account') {
    warnings.push(
      `Layout ${key} is not linked: project templates can use only project layouts. Sends render the body unwrapped.`,
    );
    return { key };
  }
  const layout = await getHead(ctx, { ref, type: 'layout' });
  if (!layout) {
    warnings.push(
      scope === 'account'
        ? `Layout ${key} does not exist yet; account templates resolve their layout at send time and render unwrapped until it exists.`
        : `Layout ${key} does not exist in this project and environment; sends render the body unwrapped.`,
    );
    return { key };
  }
  return { key, id: layout.id };
}
