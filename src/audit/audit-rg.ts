import { dirname } from 'node:path';
import type { AuditQuery } from '../protocol/audit';
import { resolveRgPath, runRg } from '../os/ripgrep';

/** A line ripgrep found, with the byte offset where it starts. */
export type RgLine = { text: string; start: number };

/** Bytes of matching lines kept from one run; past it the caller scans in process instead. */
const OUTPUT_CAP = 64 * 1024 * 1024;
const TIMEOUT_MS = 30_000;

/** Printable ASCII without a quote or backslash: JSON.stringify writes it unchanged, so the literal is exact. */
const PLAIN_VALUE = /^[\x20-\x21\x23-\x5b\x5d-\x7e]+$/;

/**
 * A literal every line matching `query` contains: the search text, else the most selective
 * filter as it appears in the writer's JSON (`"agentId":"sub-1"`). Lines holding it are only
 * candidates; the full filter decides. Undefined when no literal is exact enough to prefilter.
 */
export function prefilterNeedle(query: AuditQuery): string | undefined {
  const text = query.text?.trim();
  if (text) return query.text;
  const field = (key: string, value: string | undefined, prefix = false): string | undefined =>
    value !== undefined && PLAIN_VALUE.test(value) ? `"${key}":"${value}${prefix ? '' : '"'}` : undefined;
  const tool = query.tool;
  return (
    field('agentId', query.agent) ??
    (tool?.endsWith('*') ? field('tool', tool.slice(0, -1), true) : field('tool', tool)) ??
    field('outcome', query.outcome) ??
    field('approver', query.approver)
  );
}

/**
 * The lines of `path` starting before byte `end` that contain `needle` (case-insensitive), in file
 * order, found by ripgrep. Undefined when ripgrep is missing, fails, or finds more than the cap:
 * the caller then scans in process, so a result is never silently partial.
 * Contract: never rejects; an abort resolves undefined.
 */
export async function rgMatchingLines(
  path: string,
  needle: string,
  end: number,
  signal?: AbortSignal,
): Promise<RgLine[] | undefined> {
  let rg: string;
  try {
    rg = await resolveRgPath();
  } catch {
    return undefined;
  }
  const lines: RgLine[] = [];
  let bytes = 0;
  let overflow = false;
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  const args = [
    '--no-config',
    '--no-ignore',
    '--text',
    '--fixed-strings',
    '--ignore-case',
    '--byte-offset',
    '--no-line-number',
    '--no-filename',
    '--color=never',
    '--regexp',
    needle,
    '--',
    path,
  ];
  const result = await runRg(rg, args, {
    cwd: dirname(path),
    env: { PATH: process.env.PATH ?? '' },
    signal: controller.signal,
    timeoutMs: TIMEOUT_MS,
    onLine(line) {
      const colon = line.indexOf(':');
      const start = Number(line.slice(0, colon));
      if (colon < 1 || !Number.isSafeInteger(start)) return 'more';
      if (start >= end) return 'stop'; // file order: every later line starts after `end` too
      bytes += line.length;
      if (bytes > OUTPUT_CAP) {
        overflow = true;
        return 'stop';
      }
      lines.push({ text: line.slice(colon + 1), start });
      return 'more';
    },
  });
  signal?.removeEventListener('abort', onAbort);
  if (overflow || signal?.aborted || result.kind !== 'exited') return undefined;
  // 0: matches, 1: none; a stop we asked for ends with a signal, which is fine.
  if (result.timedOut || (result.code !== 0 && result.code !== 1 && !result.stopped)) return undefined;
  return lines;
}
