// Links from each <location> to the file it names under app/code, at the function or class when
// that is found. Only files the task's listing holds are linked, so a path with `..` or one
// leaving app/code never becomes a link.
import * as l10n from '@vscode/l10n';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DocumentLink } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { findLocationRefs, findSymbolLine } from '../core/requirement/location-refs';
import type { RequirementContext } from '../core/requirement/requirement-context';
import type { RequirementParseResult } from '../core/requirement/requirement-document';
import { stripBom } from '../core/requirement/requirement-document';

const MAX_SOURCE_BYTES = 2 * 1024 * 1024;

export async function documentLinks(doc: TextDocument, parsed: RequirementParseResult, context: RequirementContext, codeDir: string): Promise<DocumentLink[]> {
  if (!parsed.ok) return [];
  const text = doc.getText();
  // The parser's offsets count from after a BOM.
  const shift = text.length - stripBom(text).length;
  const links: DocumentLink[] = [];
  // Many locations name the same file: read each once per request.
  const sources = new Map<string, Promise<string | undefined>>();
  const sourceOf = (file: string) => {
    let source = sources.get(file);
    if (!source) sources.set(file, (source = readSource(file)));
    return source;
  };
  for (const item of parsed.items) {
    const span = item.spans.location;
    if (!span) continue;
    for (const ref of findLocationRefs(text.slice(shift + span.contentStart, shift + span.contentEnd))) {
      if (!context.codeFiles.has(ref.file)) continue;
      const file = path.join(codeDir, ...ref.file.split('/'));
      const source = ref.symbol ? await sourceOf(file) : undefined;
      const line = ref.symbol && source !== undefined ? findSymbolLine(source, ref.symbol) : undefined;
      const start = shift + span.contentStart + ref.start;
      links.push({
        range: { start: doc.positionAt(start), end: doc.positionAt(shift + span.contentStart + ref.end) },
        target: pathToFileURL(file).href + (line !== undefined ? `#L${line + 1}` : ''),
        tooltip: !ref.symbol
          ? l10n.t('Open app/code/{0}', ref.file)
          : line !== undefined
            ? l10n.t('Open app/code/{0} at {1} (line {2})', ref.file, ref.symbol.join('.'), line + 1)
            : l10n.t('Open app/code/{0} ({1} not found in it)', ref.file, ref.symbol.join('.')),
      });
    }
  }
  return links;
}

async function readSource(file: string): Promise<string | undefined> {
  const stat = await fs.lstat(file).catch(() => undefined);
  if (!stat?.isFile() || stat.size > MAX_SOURCE_BYTES) return undefined;
  return fs.readFile(file, 'utf8').catch(() => undefined);
}
