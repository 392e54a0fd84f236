import type { ApprovalPreview } from '../protocol';
import type { CallFacts } from '../policy/facts';
import { formatBytes } from '../text/bytes';
import { readFileSafely } from '../tools/fs/safe-fs';
import { looksBinary, shownText } from '../tools/fs/text-bytes';
import { hashContent } from './hash';

const PREVIEW_LIMIT_BYTES = 5 * 1024 * 1024;

export type Preview = { preview: ApprovalPreview; fileHash?: string };

/** What a tool declares of its own card: its preview (a plan, a question) and the lines saying what it will do. */
export type DeclaredPreview = {
  preview?: () => ApprovalPreview | undefined;
  effects?: () => Promise<string[]>;
};

/**
 * What the person sees before deciding: the diff of a write, the details of a command, or what the
 * tool declares (its plan, its question, its effects). Also hashes the target of a write, so a change
 * after approval is caught.
 * Contract: an unreadable file previews as empty with its hash 'unreadable'; a declared preview that
 * throws rejects (the gate fails the call closed).
 */
export async function buildPreview(
  facts: CallFacts,
  defaultTimeoutMs: number,
  declared: DeclaredPreview = {},
): Promise<Preview> {
  if (facts.kind === 'write' && facts.content !== undefined) {
    const target = facts.paths[0]?.verdict;
    if (target?.ok) {
      const before = await readExisting(target.path);
      return {
        preview: {
          kind: 'diff',
          path: target.relative,
          before: before.text ?? '',
          after: facts.content,
          isNew: before.text === undefined,
          ...(before.binary ? { binary: true as const } : {}),
        },
        fileHash: before.hash,
      };
    }
  }
  if (facts.command) {
    const cwd = facts.commandCwd;
    return {
      preview: {
        kind: 'command',
        command: facts.commandText ?? '',
        cwd: cwd?.ok ? cwd.path : '.',
        timeoutMs: facts.timeoutMs ?? defaultTimeoutMs,
        sandboxed: facts.sandboxed,
        parts: facts.command.parts.map((p) => p.text),
        notes:
          facts.command.kind === 'cannot_judge'
            ? [facts.command.reason, ...facts.command.notes]
            : facts.command.notes,
        ...(facts.writes?.length ? { writes: facts.writes.map(shownWrite) } : {}),
      },
    };
  }
  const own = declared.preview?.();
  if (own) return { preview: own };
  const effects = await declared.effects?.().catch(() => undefined);
  return { preview: effects?.length ? { kind: 'json', effects } : { kind: 'json' } };
}

type ShownWrite = NonNullable<Extract<ApprovalPreview, { kind: 'command' }>['writes']>[number];

/** A command's write target as the card lists it: project-relative when inside, flagged when protected. */
function shownWrite(w: NonNullable<CallFacts['writes']>[number]): ShownWrite {
  if (w.dynamic) return { path: w.target.replaceAll('\u0000', ''), dynamic: true };
  if (!w.verdict.ok) return w.scratch ? { path: w.target, scratch: true } : { path: w.target };
  const path = w.verdict.relative === '' ? '.' : w.verdict.relative;
  return w.verdict.protectedBy ? { path, protected: w.verdict.protectedBy } : { path };
}

/**
 * The current content and hash of a file a write will replace ('absent' when it does not exist).
 * Read through a verified descriptor (safe-fs.ts): a swapped folder cannot put an outside file on the
 * card. A binary file (a NUL byte anywhere) is described, not shown, and flagged `binary`.
 */
export async function readExisting(path: string): Promise<{ text?: string; hash: string; binary?: true }> {
  try {
    const found = await readFileSafely({ path }, PREVIEW_LIMIT_BYTES);
    switch (found.kind) {
      case 'absent':
        return { hash: hashContent(undefined) };
      case 'not-file':
        return { hash: 'not-a-file' };
      case 'too-large':
        return {
          text: `(existing file of ${found.size} bytes is too large to preview)`,
          hash: `size:${found.size}:${found.mtimeMs}`,
        };
      case 'file':
        if (looksBinary(found.bytes)) {
          return {
            text: `(binary file of ${formatBytes(found.size)}, not shown: the text below replaces all of it)`,
            hash: hashContent(found.bytes),
            binary: true,
          };
        }
        return { text: shownText(found.bytes), hash: hashContent(found.bytes) };
    }
  } catch {
    return { text: '', hash: 'unreadable' };
  }
}
